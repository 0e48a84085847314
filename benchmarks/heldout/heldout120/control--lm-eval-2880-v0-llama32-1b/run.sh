#!/bin/bash
VLLM_USE_V1=0 lm-eval \
  --model vllm \
  --model_args pretrained=meta-llama/Llama-3.2-1B,max_model_len=2048,gpu_memory_utilization=0.5 \
  --tasks wikitext \
  --batch_size 1
