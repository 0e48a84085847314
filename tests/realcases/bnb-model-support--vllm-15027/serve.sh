#!/bin/bash
# Mistral format (params.json) with in-flight 4-bit BitsAndBytes
vllm serve mistralai/Mistral-Small-3.1-24B-Instruct-2503 \
  --tokenizer-mode mistral --config-format mistral \
  --load-format bitsandbytes --quantization bitsandbytes \
  --max-model-len 16384
