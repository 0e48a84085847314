#!/bin/bash
# lm-eval's wikitext (rolling loglikelihood) builds windows of exactly max_length tokens.
lm-eval \
  --model vllm \
  --model_args pretrained=meta-llama/Llama-3.2-1B,max_model_len=2048,gpu_memory_utilization=0.5 \
  --tasks wikitext \
  --batch_size 1
