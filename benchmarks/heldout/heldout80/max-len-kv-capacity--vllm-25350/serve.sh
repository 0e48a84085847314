#!/bin/sh
vllm serve Qwen/Qwen3-30B-A3B-Instruct-2507-FP8 \
  --kv-cache-dtype fp8 \
  --max-model-len 221000
