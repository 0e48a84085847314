#!/bin/sh
export CUDA_VISIBLE_DEVICES=0,1,2,3
vllm serve Qwen3-32B-AWQ \
  --tensor-parallel-size 4 \
  --dtype half \
  --cpu-offload-gb 1 \
  --gpu-memory-utilization 0.9 \
  --host 0.0.0.0 \
  --enable-auto-tool-choice \
  --tool-call-parser hermes \
  --port 10000
