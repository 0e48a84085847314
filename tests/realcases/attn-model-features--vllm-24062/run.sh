#!/bin/sh
# the reporter's launch on a GeForce 20-series card (Docker Desktop on Windows), the vLLM image of the day
docker run --runtime nvidia --gpus all \
  -v "$HOME/model/.cache/huggingface:/root/.cache/huggingface" \
  -p 8000:8000 --ipc=host \
  vllm/vllm-openai:v0.10.1.1 \
  --model unsloth/gpt-oss-20b-unsloth-bnb-4bit
