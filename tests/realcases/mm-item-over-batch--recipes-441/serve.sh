#!/bin/bash
# the recipe's 26B MoE command for one A100/H100
vllm serve google/gemma-4-26B-A4B-it \
  --max-model-len 32768 \
  --gpu-memory-utilization 0.90
