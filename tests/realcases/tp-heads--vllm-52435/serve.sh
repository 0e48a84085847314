#!/bin/sh
# DeepSeek-V4-Flash-0731 spread over three GPUs with expert parallelism.
vllm serve deepseek-ai/DeepSeek-V4-Flash-0731 \
  --served-model-name dsv4-flash \
  --tensor-parallel-size 3 \
  --enable-expert-parallel \
  --kv-cache-dtype fp8 \
  --block-size 256 \
  --gpu-memory-utilization 0.875 \
  --moe-backend deep_gemm_mega_moe \
  --tokenizer-mode deepseek_v4 \
  --reasoning-parser deepseek_v4
