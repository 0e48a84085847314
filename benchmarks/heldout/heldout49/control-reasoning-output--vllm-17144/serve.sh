#!/bin/sh
# QwQ-32B on four GPUs with the V0 engine, no reasoning parser (the client parses the think tags itself)
VLLM_USE_V1=0 vllm serve Qwen/QwQ-32B \
  --max-model-len 32000 \
  --gpu-memory-utilization 0.95 \
  --distributed-executor-backend mp \
  --tensor-parallel-size 4
