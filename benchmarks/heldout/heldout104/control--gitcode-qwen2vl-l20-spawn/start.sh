#!/usr/bin/env bash
export VLLM_WORKER_MULTIPROC_METHOD=spawn
python -m vllm.entrypoints.openai.api_server \
  --model /data/llms/qwen/Qwen2-VL-72B-Instruct \
  --trust-remote-code \
  --served-model-name Qwen2-VL-72B-Instruct \
  --enforce-eager \
  --dtype float16 \
  --gpu-memory-utilization 0.9 \
  --tensor-parallel-size 8
