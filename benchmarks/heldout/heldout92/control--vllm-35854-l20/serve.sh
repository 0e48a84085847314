#!/bin/sh
vllm serve --model Qwen/Qwen3.5-35B-A3B \
  --served-model-name Qwen3.5-35B-A3B \
  --api-key token-llm \
  --tensor-parallel-size 4 \
  --gpu-memory-utilization 0.7 \
  --trust-remote-code \
  --max_model_len 16384 \
  --reasoning-parser qwen3 \
  --tool-call-parser qwen3_coder \
  --port 11435 \
  --dtype half
