#!/bin/sh
vllm serve Qwen/Qwen2.5-72B-Instruct-GPTQ-Int4 \
  --max-model-len 8192 \
  --gpu-memory-utilization 0.95 \
  --enforce-eager
