#!/bin/bash
# rank 0 of two, external load balancing, for a MoE model
vllm serve Qwen/Qwen3-30B-A3B \
  --data-parallel-size 2 \
  --data-parallel-rank 0 \
  --data-parallel-address 10.0.0.1 \
  --data-parallel-rpc-port 13345 \
  --max-model-len 8192
