#!/bin/sh
vllm serve --model ./models/Qwen3-VL-Embedding-8B --task embedding \
  --host 0.0.0.0 --port 8011 \
  --served-model-name Qwen3-VL-Embedding-8B \
  --trust-remote-code \
  --max-model-len 8192 \
  --dtype bfloat16 \
  --tensor-parallel-size 8 \
  --gpu-memory-utilization 0.85 \
  --enforce-eager
