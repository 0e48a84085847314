#!/bin/bash
vllm serve mistralai/Mistral-Small-3.1-24B-Instruct-2503 \
  --tokenizer_mode mistral --config_format mistral --load_format mistral \
  --tool-call-parser mistral --enable-auto-tool-choice \
  --limit_mm_per_prompt 'image=10' \
  --tensor-parallel-size 2 \
  --load-format bitsandbytes --quantization bitsandbytes
