#!/bin/sh
# Qwen2.5-VL-72B over four A100-80GB, as in the recipes guide
vllm serve Qwen/Qwen2.5-VL-72B-Instruct \
  --host 0.0.0.0 \
  --port 8000 \
  --tensor-parallel-size 4 \
  --data-parallel-size 1
