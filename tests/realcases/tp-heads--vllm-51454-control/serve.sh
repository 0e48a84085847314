#!/bin/sh
# The tensor-parallel arm of a DP-vs-TP comparison: DeepSeek-V4-Flash-0731 over eight B200s
# (options in the order the server logged them as non-default).
vllm serve deepseek-ai/DeepSeek-V4-Flash-0731 \
  --enable-auto-tool-choice --tool-call-parser deepseek_v4 --tokenizer-mode deepseek_v4 \
  --trust-remote-code --served-model-name deepseek-v4-flash-0731 --reasoning-parser deepseek_v4 \
  --tensor-parallel-size 8 --enable-expert-parallel --block-size 256 \
  --gpu-memory-utilization 0.95 --kv-cache-dtype fp8 \
  --max-num-batched-tokens 8192 --max-num-seqs 256 --moe-backend deep_gemm_mega_moe
