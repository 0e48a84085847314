#!/bin/sh
vllm serve Qwen/Qwen3-4B-Thinking-2507-FP8 \
  --reasoning-parser deepseek_r1 \
  --port 8000
