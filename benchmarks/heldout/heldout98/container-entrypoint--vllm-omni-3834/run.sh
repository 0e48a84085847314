#!/bin/bash
docker run --runtime nvidia --gpus all \
  -v /model/huggingface:/root/.cache/huggingface \
  -e NVIDIA_VISIBLE_DEVICES=1 \
  --env "HF_TOKEN=$HF_TOKEN" \
  -p 8091:8091 \
  --ipc=host \
  vllm/vllm-omni:latest \
  --model fishaudio/s2-pro --port 8091
