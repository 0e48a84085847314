#!/bin/bash
trl vllm-serve \
  --model Qwen/Qwen2.5-Coder-14B-Instruct \
  --port 8000 \
  --gpu-memory-utilization 0.6 \
  --tensor-parallel-size 1 \
  --dtype bfloat16
