#!/usr/bin/env bash
# The model instance GPUStack starts: Qwen2.5-7B-Instruct with one LoRA adapter trained at rank 64.
vllm serve Qwen/Qwen2.5-7B-Instruct \
  --enable-lora \
  --lora-modules support-bot=./adapters/support-bot \
  --max-model-len 8192
