#!/bin/sh
vllm serve Qwen/Qwen3-30B-A3B \
  --host 0.0.0.0 --port 6006 \
  --gpu-memory-utilization 0.95 \
  --max_model_len 4096 \
  --kv_cache_dtype fp8 \
  --max_num_batched_tokens 32768 \
  --max_num_seqs 256
