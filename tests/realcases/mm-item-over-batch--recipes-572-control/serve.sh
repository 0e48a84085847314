#!/bin/bash
# the recipe's command after the fix: a batch budget above the largest multimodal item
vllm serve google/gemma-4-26B-A4B-it \
  --max-model-len 32768 \
  --gpu-memory-utilization 0.90 \
  --max-num-batched-tokens 4096
