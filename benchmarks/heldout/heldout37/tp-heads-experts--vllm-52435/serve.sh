#!/bin/sh
# DeepSeek-V4-Flash-0731 on three GPUs with expert parallelism and the DSpark drafter.
vllm serve deepseek-ai/DeepSeek-V4-Flash-0731 \
  --served-model-name deepseek-v4-flash-0731 \
  --tensor-parallel-size 3 \
  --enable-expert-parallel \
  --block-size 256 \
  --gpu-memory-utilization 0.875 \
  --kv-cache-dtype fp8 \
  --moe-backend deep_gemm_mega_moe \
  --enable-auto-tool-choice \
  --tool-call-parser deepseek_v4 \
  --reasoning-parser deepseek_v4 \
  --speculative-config '{"method": "dspark", "num_speculative_tokens": 7, "draft_sample_method": "greedy"}'
