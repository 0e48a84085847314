#!/bin/sh
# gpt-oss-20b with the default settings on a box holding a 2080 Ti (device 0) and a 3090
uv run --with vllm==0.11.0 vllm serve openai/gpt-oss-20b
