#!/bin/bash
export CUDA_VISIBLE_DEVICES=6,7
python -m vllm.entrypoints.openai.api_server \
  --model Qwen/Qwen3-Next-80B-A3B-Instruct-FP8 \
  --served-model-name fp8 --trust-remote-code \
  --tensor-parallel-size 2 --max-model-len 131072 \
  --gpu-memory-utilization 0.75 --port 7868 --host 0.0.0.0 \
  --dtype auto --kv-cache-dtype auto --disable-log-requests \
  --speculative-config '{"method": "eagle3", "model": "/models/SGLang-EAGLE3-Qwen3-Next-80B-A3B-Instruct-FP8-SpecForge-Meituan", "num_speculative_tokens": 5}'
