#!/bin/sh
vllm serve openai/gpt-oss-20b --port 10000 --max-model-len 131072 --gpu-memory-utilization 0.65 --trust-remote-code
