#!/bin/bash
vllm serve openbmb/MiniCPM-V-4_5 --trust-remote-code --gpu-memory-utilization 0.95 \
  --max-model-len 16000 --max-num-seqs 1
