#!/bin/sh
# serve Qwen2-VL-72B-Instruct through the OpenAI-compatible server
vllm serve Qwen/Qwen2-VL-72B-Instruct \
  --tensor-parallel-size 4 \
  --max-model-len 32768
