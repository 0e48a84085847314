#!/bin/sh
vllm serve /data \
  --served-model-name glm46 \
  --enable-auto-tool-choice \
  --tool-call-parser glm45 \
  --reasoning-parser glm45 \
  --swap-space 16 \
  --max-num-seqs 32 \
  --max-model-len 8192 \
  --gpu-memory-utilization 0.9 \
  --tensor-parallel-size 4 \
  --trust-remote-code \
  --host 0.0.0.0 \
  --port 8000
