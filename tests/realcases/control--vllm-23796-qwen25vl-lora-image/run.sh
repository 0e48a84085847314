#!/bin/bash
# Qwen2.5-VL-7B with one adapter, vLLM's image of 0.10.1.1
docker run --gpus all -p 50019:50019 \
  -v /data/models:/models \
  vllm/vllm-openai:v0.10.1.1 \
  --model /models/Qwen2.5-VL-7B-Instruct \
  --host 0.0.0.0 --port 50019 \
  --max-model-len 16384 \
  --enable-lora --max-lora-rank 64 \
  --lora-modules vl-ft=/models/adapters/vl-ft
