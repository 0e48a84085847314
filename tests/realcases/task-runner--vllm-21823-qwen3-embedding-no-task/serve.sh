#!/bin/sh
# the local copy of the Hub upload, served with no task
vllm serve ./models/Qwen3-Embedding-8B --served-model-name Qwen3-Embedding-8B \
  --host 0.0.0.0 --port 10001 --max_model_len 32768 --gpu-memory-utilization 0.3
