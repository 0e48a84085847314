#!/bin/bash
vllm serve /mnt/llms/models/bullerwins/MiniMax-M3-4bit-W4A16/ \
  --enable-auto-tool-choice \
  --tool-call-parser minimax_m3 \
  --host 0.0.0.0 \
  --port 5000 \
  --trust-remote-code \
  --max-model-len 4096 \
  --served-model-name rodrimora/MiniMax-M3 \
  --reasoning-parser minimax_m3 \
  --pipeline-parallel-size 7 \
  --enable-expert-parallel \
  --gpu-memory-utilization 0.9 \
  --max-num-seqs 1
