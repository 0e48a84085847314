#!/bin/bash
# the 0.14.1 image on a host whose driver reports CUDA 11.8
docker run -d --gpus all --name asr --ipc=host -p 8000:8000 \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  vllm/vllm-openai:v0.14.1 \
  --model Qwen/Qwen2.5-7B-Instruct
