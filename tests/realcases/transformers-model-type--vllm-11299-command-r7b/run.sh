#!/bin/bash
docker run --runtime nvidia --gpus all --ipc=host -p 8000:8000 \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  vllm/vllm-openai:v0.6.5 \
  --model CohereForAI/c4ai-command-r7b-12-2024
