#!/bin/bash
vllm serve Qwen/Qwen2-VL-2B-Instruct \
  --dtype auto \
  --api-key token-abc123 \
  --max_model_len 8192 \
  --port 12345 \
  --tensor-parallel-size 2 \
  --enforce-eager \
  --gpu-memory-utilization 0.9 \
  --disable-log-stats \
  --trust-remote-code \
  --limit-mm-per-prompt image=4
