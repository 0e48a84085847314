#!/bin/sh
# Gemma 7B served with a LoRA adapter mounted at /artifacts.
python -u -m vllm.entrypoints.openai.api_server \
  --host 0.0.0.0 \
  --model google/gemma-7b \
  --enable-lora \
  --lora-modules quote=/artifacts \
  --max-model-len 1024
