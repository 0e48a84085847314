#!/bin/sh
# OpenAI-style API over a fine-tuned Qwen3-VL-4B, served by the vLLM backend.
API_PORT=8000 CUDA_VISIBLE_DEVICES=0 llamafactory-cli api \
  --model_name_or_path ./saves/qwen3-vl-4b/full/sft \
  --template qwen3_vl \
  --infer_backend vllm \
  --trust_remote_code true
