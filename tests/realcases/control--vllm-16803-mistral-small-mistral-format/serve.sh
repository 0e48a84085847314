#!/bin/bash
vllm serve mistralai/Mistral-Small-3.1-24B-Instruct-2503 \
  --tokenizer_mode mistral --config_format mistral --load_format mistral
