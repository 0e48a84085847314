#!/bin/sh
# The reporter's launch reduced to what splits the experts: three GPUs, expert parallelism, MegaMoE.
vllm serve deepseek-ai/DeepSeek-V4-Flash-0731 --tensor-parallel-size 3 \
  --enable-expert-parallel --moe-backend deep_gemm_mega_moe
