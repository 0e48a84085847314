#!/bin/bash
# LLaVA-1.5 quantized in flight with BitsAndBytes
vllm serve llava-hf/llava-1.5-7b-hf \
    --quantization bitsandbytes --load-format bitsandbytes \
    --max-model-len 4096
