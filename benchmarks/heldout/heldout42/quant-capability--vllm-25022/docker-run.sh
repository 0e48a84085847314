#!/bin/bash
# A compressed-tensors W4A16 (4-bit weight) checkpoint served on one Tesla T4
docker run --rm --gpus all --ipc host -p 8000:8000 \
  -v /path/to/hf:/root/.cache/huggingface \
  vllm/vllm-openai:v0.10.2 \
  --model RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16 \
  --dtype half \
  --max-model-len 8192
