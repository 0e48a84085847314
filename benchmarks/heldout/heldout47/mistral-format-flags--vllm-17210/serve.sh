#!/bin/bash
docker run --runtime nvidia --gpus all --ipc=host -p 8000:8000 \
  -v "$PWD/models:/models" \
  vllm/vllm-openai:v0.8.4 \
  --model /models/Mistral-Small-3.1-24B-Instruct-2503-Q6_K \
  --tokenizer-mode mistral \
  --config-format mistral \
  --load-format mistral
