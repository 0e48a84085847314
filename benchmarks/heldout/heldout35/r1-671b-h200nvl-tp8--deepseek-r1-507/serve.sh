#!/bin/sh
vllm serve DeepSeek-R1 \
  --max-model-len 131072 \
  --max-num-batched-tokens 65536 \
  --enable-reasoning --reasoning-parser deepseek_r1 \
  --port 1234 \
  --api_key sk-example \
  --tensor-parallel-size 8 --trust-remote-code \
  --disable-log-requests \
  --gpu-memory-utilization 0.8
