#!/bin/bash
# dual chunk attention needs V0's DualChunkFlashAttention backend
export VLLM_ATTENTION_BACKEND=DUAL_CHUNK_FLASH_ATTN
export VLLM_USE_V1=0
vllm serve Qwen/Qwen2.5-7B-Instruct-1M \
  --tensor-parallel-size 4 \
  --max-model-len 1010000 \
  --enable-chunked-prefill \
  --max-num-batched-tokens 131072 \
  --enforce-eager \
  --max-num-seqs 1 \
  --gpu-memory-utilization 0.85
