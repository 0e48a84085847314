#!/bin/bash
docker run --runtime nvidia --gpus all --ipc=host -p 8000:8000 \
  -v /models:/models \
  vllm/vllm-openai:v0.8.2 \
  --model /models/Qwen/QwQ-32B --gpu_memory_utilization 0.95 \
  --enable-reasoning --reasoning-parser deepseek_r1 \
  --enable-auto-tool-choice --tool-call-parser hermes \
  --tensor-parallel-size 8
