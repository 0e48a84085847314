#!/bin/bash
vllm serve Qwen/Qwen2.5-Omni-7B \
  --port 8899 \
  --dtype bfloat16 \
  -tp 2 \
  --gpu-memory-utilization 0.7 \
  --allowed-local-media-path /root \
  --max-num-seqs 1
