#!/bin/sh
vllm serve /root/xinglin-data/api_model/DeepSeek-V4-Flash --trust-remote-code --tensor-parallel-size 8 \
  --enable-expert-parallel --block-size 128 --max-model-len 8192 --gpu-memory-utilization 0.90 \
  --max-num-seqs 8 --max-num-batched-tokens 4096 --tokenizer-mode deepseek_v4 --tool-call-parser deepseek_v4 \
  --reasoning-parser deepseek_v4 --enable-auto-tool-choice --host 0.0.0.0 --port 12800 --kv-cache-dtype fp8 \
  --enforce-eager
