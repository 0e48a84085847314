#!/bin/sh
vllm serve unsloth/Phi-4-mini-instruct-unsloth-bnb-4bit \
  --dtype bfloat16 \
  --quantization bitsandbytes \
  --load-format bitsandbytes \
  --enforce-eager \
  --max-model-len 4096 \
  --gpu-memory-utilization 0.8
