#!/bin/bash
# uv add vllm, then the per-iteration logging flag the docs of main described
vllm serve Qwen/Qwen3-8B --enable-logging-iteration-details
