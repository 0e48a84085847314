#!/bin/sh
vllm serve openbmb/MiniCPM-V-4_5 \
  --dtype auto \
  --max-model-len 4096 \
  --api-key token-abc123 \
  --gpu_memory_utilization 0.9 \
  --trust-remote-code \
  --limit-mm-per-prompt image=5,video=2
