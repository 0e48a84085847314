#!/bin/bash
# Llama 3.2 Vision 90B, the bitsandbytes 4-bit upload, one GPU
vllm serve unsloth/Llama-3.2-90B-Vision-Instruct-bnb-4bit \
  --quantization bitsandbytes --load-format bitsandbytes \
  --trust-remote-code --enforce-eager
