#!/bin/sh
# the 8B embedding upload from the Hub, served with no runner or task, in the background with its log
vllm serve Qwen/Qwen3-VL-Embedding-8B \
  --served-model-name Qwen3-VL-Embedding-8B \
  --host 0.0.0.0 \
  --port 8801 > logs/qwen3-vl-embed.log 2>&1 &
