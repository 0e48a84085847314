#!/bin/bash
# Mistral Small 3.1 in Mistral's own format, four GPUs
docker run --runtime nvidia --gpus all \
  --name vllm-Mistral-Small-3.1-24B-Instruct-2503 \
  --env "HUGGING_FACE_HUB_TOKEN=${HUGGING_FACE_HUB_TOKEN}" \
  -v /data/huggingface:/root/.cache/huggingface \
  -p 8000:8000 --ipc=host \
  vllm/vllm-openai:v0.8.0 \
  --model mistralai/Mistral-Small-3.1-24B-Instruct-2503 \
  --tensor-parallel-size 4 \
  --host 0.0.0.0 \
  --trust-remote-code \
  --tokenizer_mode mistral \
  --config_format mistral \
  --load_format mistral
