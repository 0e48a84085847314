#!/bin/sh
# Qwen3.5 122B-A10B (GPTQ int4) on two cards, long context, prefix caching on
vllm serve Qwen/Qwen3.5-122B-A10B-GPTQ-Int4 \
  --served-model-name Qwen3.5-27B-AWQ-4bit \
  --gpu-memory-utilization 0.9 \
  --port 8848 \
  -tp 2 \
  --max-model-len 131072 \
  --enable-auto-tool-choice \
  --tool-call-parser qwen3_coder \
  --reasoning-parser qwen3 \
  --max-num-seqs 16 \
  --enable-prefix-caching
