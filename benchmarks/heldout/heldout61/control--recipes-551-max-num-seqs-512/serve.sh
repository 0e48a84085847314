#!/bin/sh
python3 -m vllm.entrypoints.openai.api_server \
  --model Qwen/Qwen3.6-27B-FP8 \
  --gpu-memory-utilization 0.95 \
  --max-num-seqs 512 \
  --tool-call-parser qwen3_coder \
  --reasoning-parser qwen3 \
  --enable-auto-tool-choice
