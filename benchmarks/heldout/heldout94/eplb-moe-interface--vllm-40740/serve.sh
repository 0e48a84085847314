#!/bin/sh
vllm serve microsoft/Phi-mini-MoE-instruct \
  --enable-expert-parallel \
  --tensor-parallel-size 2 --data-parallel-size 1 \
  --gpu-memory-utilization 0.85 --max-model-len 1024 \
  --enable-eplb
