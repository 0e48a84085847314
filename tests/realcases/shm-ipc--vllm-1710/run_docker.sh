#!/bin/bash
docker run --gpus all -p 8000:8000 \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  vllm/vllm-openai:v0.4.1 \
  --model meta-llama/Llama-2-13b-chat-hf --tensor-parallel-size 2
