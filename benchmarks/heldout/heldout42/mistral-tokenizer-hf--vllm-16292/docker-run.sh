#!/bin/bash
# Mistral Small 3.1 (Hugging Face layout, FP8 weights and FP8 KV) with Mistral's own tokenizer for tool calls
docker run --runtime nvidia --gpus all \
  -v /path/models:/models \
  -e HF_CACHE=/models \
  --ipc=host \
  vllm/vllm-openai:v0.8.3 \
  --model /models/Mistral-Small-3.1-24B-Instruct-2503-FP8-KV \
  --download-dir /models \
  --kv-cache-dtype fp8 \
  --limit_mm_per_prompt 'image=10' \
  --max-model-len 65536 \
  --enable-auto-tool-choice \
  --tool-call-parser mistral \
  --tokenizer-mode mistral
