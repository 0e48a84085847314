#!/bin/sh
# Llama 4 Scout on 4x H100 80GB, the command the commenter reports as working.
PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True \
TORCH_COMPILE_CACHE_DIR=/mnt/ai_container/data/llama4/torch_cache \
XDG_CACHE_HOME=/mnt/ai_container/data/llama4/torch_cache \
vllm serve "meta-llama/Llama-4-Scout-17B-16E-Instruct" \
  --tensor-parallel-size 4 \
  --gpu-memory-utilization 0.95 \
  --max-model-len 49152 \
  --block-size 16 \
  --swap-space 16 \
  --enforce-eager \
  --max-num-batched-tokens 8192 \
  --max-num-seqs 256
