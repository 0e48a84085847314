#!/bin/bash
docker run --runtime nvidia --gpus all --ipc=host -p 8000:8000 \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  vllm/vllm-openai:v0.9.0.1 \
  --model google/gemma-3-4b-it
