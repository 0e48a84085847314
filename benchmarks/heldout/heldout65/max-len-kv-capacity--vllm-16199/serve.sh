#!/bin/sh
export VLLM_USE_V1=0
vllm serve gaunernst/gemma-3-27b-it-int4-awq \
  --max-model-len 4096 \
  --gpu-memory-utilization 0.98 \
  --distributed-executor-backend ray \
  --dtype float16
