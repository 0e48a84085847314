#!/usr/bin/env bash
docker run --rm --gpus all --shm-size=2g -p 8000:8000 \
  -v "$HOME/.cache/huggingface:/root/.cache/huggingface" \
  vllm/vllm-openai:v0.9.0 \
  --model deepseek-ai/DeepSeek-R1-Distill-Llama-8B \
  --tensor-parallel-size 2 \
  --max-model-len 8192
