#!/usr/bin/env bash
docker run --rm --runtime nvidia --gpus all --ipc=host -p 8000:8000 \
  -v "$HOME/.cache/huggingface:/root/.cache/huggingface" \
  vllm/vllm-openai:v0.5.3.post1 \
  --model neuralmagic/Qwen2-72B-Instruct-quantized.w8a16 \
  --tensor-parallel-size 4
