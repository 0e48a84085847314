#!/usr/bin/env bash
# Base model plus the text2sql LoRA downloaded next to this script, registered at start-up.
python3 -m vllm.entrypoints.openai.api_server \
  --model meta-llama/Llama-3.2-3B-Instruct \
  --enable-lora \
  --max-lora-rank 8 \
  --lora-modules sql-lora=./adapters/text2sql \
  --max-model-len 8192
