#!/bin/bash
# a Phi-3.5 mini checkpoint saved in 4 bit with bitsandbytes
vllm serve unsloth/Phi-3.5-mini-instruct-bnb-4bit \
  --quantization bitsandbytes --load-format bitsandbytes --max-model-len 4096
