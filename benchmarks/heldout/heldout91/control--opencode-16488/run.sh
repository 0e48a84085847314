#!/bin/sh
vllm serve nvidia/Qwen3-Next-80B-A3B-Instruct-NVFP4 \
  --enable-auto-tool-choice \
  --tool-call-parser qwen3_coder \
  --host 0.0.0.0 --port 8000
