#!/bin/sh
# the recipe's command for Qwen3.6-27B-FP8 on one H100 (before the fix)
python3 -m vllm.entrypoints.openai.api_server \
  --model Qwen/Qwen3.6-27B-FP8 \
  --gpu-memory-utilization 0.95 \
  --tool-call-parser qwen3_coder \
  --reasoning-parser qwen3 \
  --enable-auto-tool-choice
