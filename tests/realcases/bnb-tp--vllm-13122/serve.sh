#!/bin/bash
vllm serve unsloth/DeepSeek-R1-Distill-Llama-70B-bnb-4bit \
    --tensor-parallel-size 8 \
    --quantization bitsandbytes --load-format bitsandbytes \
    --max-model-len 8192
