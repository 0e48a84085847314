#!/bin/bash
# AWS g6.xlarge (one L4, 24 GB); the container's memory limit raised from 6 GB to 10 GB
docker run -d --runtime nvidia --gpus 1 --name vllm \
  --memory 10g \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  --env "HUGGING_FACE_HUB_TOKEN=${HF_TOKEN}" \
  -p 8000:8000 \
  --ipc=host \
  vllm/vllm-openai:v0.4.3 \
  --model=THUDM/glm-4-9b-chat \
  --gpu-memory-utilization=0.9 \
  --enable-prefix-caching \
  --trust-remote-code \
  --enforce-eager \
  --max-model-len=4000
