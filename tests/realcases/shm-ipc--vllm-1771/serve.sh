#!/bin/bash
docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.4.2 \
  --model THUDM/glm-4-9b-chat --max-model-len 8192 --tensor-parallel-size 2 \
  --trust-remote-code --gpu-memory-utilization 0.9
