#!/bin/bash
# One 8xH100 node, block-FP8 MoE checkpoint, tensor parallel 8.
vllm serve Qwen/Qwen3.6-35B-A3B-FP8 \
  --served-model-name Qwen/Qwen3.6-35B-A3B-FP8 \
  --tensor-parallel-size 8 \
  --trust-remote-code \
  --kv-cache-dtype fp8 \
  --gpu-memory-utilization 0.9 \
  --block-size 128 \
  --max-num-seqs 1
