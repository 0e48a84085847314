#!/bin/bash
# Mistral Small 3.1 in its Hugging Face format with a LoRA adapter trained on it
vllm serve mistralai/Mistral-Small-3.1-24B-Instruct-2503 \
  --max-model-len 16384 \
  --enable-lora \
  --max-lora-rank 32 \
  --lora-modules tuned=./adapters/mistral-small-lora
