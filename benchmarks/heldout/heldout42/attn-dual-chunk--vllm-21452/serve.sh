#!/bin/bash
# Qwen2.5 1M-context checkpoint served on four GPUs; the reporter pointed MODEL at a local copy of the Hub repo
MODEL=Qwen/Qwen2.5-7B-Instruct-1M
vllm serve $MODEL \
  --gpu-memory-utilization 0.9 \
  --enable-prefix-caching \
  --tensor-parallel-size 4 \
  --max-model-len 9000 \
  --enforce-eager \
  --max-num-seqs 1 &
sleep 60
curl -s http://localhost:8000/v1/models
