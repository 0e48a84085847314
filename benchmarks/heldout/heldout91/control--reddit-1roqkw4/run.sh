#!/bin/sh
vllm serve nvidia/Qwen3.5-397B-A17B-NVFP4 \
  --tensor-parallel-size 2 \
  --pipeline-parallel-size 2 \
  --kv-cache-dtype fp8_e4m3 \
  --max-model-len 32768 \
  --host 0.0.0.0 --port 8000
