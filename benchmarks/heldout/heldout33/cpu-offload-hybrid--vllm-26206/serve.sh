#!/bin/sh
vllm serve --gpu-memory-utilization 0.96 --tensor-parallel-size 2 --max_num_seqs 1 --max-model-len 40000 \
  Qwen/Qwen3-Next-80B-A3B-Instruct-FP8 --cpu-offload-gb 30
