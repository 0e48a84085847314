#!/bin/sh
# One DGX Spark (GB10, 128 GB unified memory)
vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct-FP8 \
  --max-model-len 131072 \
  --gpu-memory-utilization 0.7 \
  --load-format fastsafetensors \
  --host 0.0.0.0 --port 8888
