#!/bin/sh
VLLM_USE_V1=1 python3 -m vllm.entrypoints.openai.api_server \
  --port 10011 \
  --model /data/models/qwen2.5_72b-FP8 \
  --dtype auto \
  -tp 2 \
  --max-model-len 8192 \
  --max-num-seqs 512 \
  --gpu-memory-utilization 0.9 \
  --enable-prefix-caching \
  --swap-space 16 \
  --disable-log-stats \
  --disable-log-requests \
  --trust-remote-code --kv-cache-dtype fp8
