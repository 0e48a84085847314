#!/bin/bash
vllm serve cyankiwi/Qwen3.6-35B-A3B-AWQ-4bit \
  --max-model-len 16384 \
  --gpu-memory-utilization 0.8 \
  --seed 42 \
  --dtype auto \
  --tool-call-parser qwen3_coder \
  --enable-auto-tool-choice \
  --enable-log-requests \
  --enable-log-outputs \
  --enable-expert-parallel \
  --language-model-only \
  --reasoning-parser qwen3 \
  --enable-prefix-caching
