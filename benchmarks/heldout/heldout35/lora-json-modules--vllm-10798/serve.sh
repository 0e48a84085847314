#!/bin/sh
ADAPTER_PATH=/root/.cache/huggingface/hub/touch-rugby-1
vllm serve Qwen/Qwen2.5-7B-Instruct \
  --max-model-len 8192 \
  --enable-lora \
  --max-lora-rank 8 \
  --port 8000 \
  --lora-modules "{\"name\": \"touch-rugby-1\", \"path\": \"${ADAPTER_PATH}\", \"base_model_name\": \"Qwen/Qwen2.5-7B-Instruct\"}"
