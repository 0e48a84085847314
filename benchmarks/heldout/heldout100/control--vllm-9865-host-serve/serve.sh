#!/bin/sh
HF_HOME=/data/models/.cache \
CUDA_VISIBLE_DEVICES=2,3 \
vllm serve deepseek-ai/DeepSeek-R1-Distill-Llama-70B \
  --tensor-parallel-size 2 \
  --port 8020 \
  --disable-log-stats \
  --gpu-memory-utilization=1 \
  --max-model-len=70528
