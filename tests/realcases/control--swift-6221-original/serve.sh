#!/bin/sh
VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve ./Qwen3-Next-80B-A3B-Instruct \
  --served-model-name qwen3-next --port 9001 --trust-remote-code \
  --tensor-parallel-size 2 --gpu-memory-utilization 0.90 --enable-prefix-caching \
  --max-model-len 4096 --reasoning-parser deepseek_r1 \
  --speculative-config '{"method":"qwen3_next_mtp","num_speculative_tokens":2}'
