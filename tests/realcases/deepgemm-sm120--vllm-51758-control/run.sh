#!/bin/sh
docker run --gpus all --ipc=host -p 8000:8000 vllm/vllm-openai:v0.26.0 \
  --model deepseek-ai/DeepSeek-V4-Flash-0731 --tensor-parallel-size 2 \
  --kv-cache-dtype fp8 --max-model-len 1048576
