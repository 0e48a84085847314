#!/usr/bin/env bash
# Qwen2-VL-72B on one 8-GPU L20 node
python -m vllm.entrypoints.openai.api_server \
  --model /data/llms/qwen/Qwen2-VL-72B-Instruct \
  --trust-remote-code \
  --served-model-name Qwen2-VL-72B-Instruct \
  --enforce-eager \
  --dtype float16 \
  --gpu-memory-utilization 0.9 \
  --tensor-parallel-size 8
