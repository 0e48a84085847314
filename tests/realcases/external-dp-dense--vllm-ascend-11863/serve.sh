#!/bin/bash
# one prefill node of the deployment: a data-parallel rank of its own, external load balancing
vllm serve Qwen/Qwen3.6-27B \
  --host 0.0.0.0 --port 8100 \
  --data-parallel-size 2 \
  --data-parallel-rank 0 \
  --data-parallel-address 10.0.0.1 \
  --data-parallel-rpc-port 13389 \
  --tensor-parallel-size 4 \
  --max-num-seqs 4 \
  --max-model-len 32768 \
  --max-num-batched-tokens 16384 \
  --gpu-memory-utilization 0.95 \
  --enforce-eager
