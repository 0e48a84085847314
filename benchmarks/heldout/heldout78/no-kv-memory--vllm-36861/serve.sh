#!/bin/sh
# four nodes with one A10 each, joined into a Ray cluster
python3 -m vllm.entrypoints.openai.api_server \
  --served-model-name Qwen3.5-35B-A3B \
  --model ./athena/Qwen3.5-35B-A3B \
  --gpu-memory-utilization 0.9 \
  --tensor-parallel-size 1 \
  --pipeline-parallel-size 4 \
  --max-model-len 160000 \
  --max-num-batched-tokens 4096 \
  --max-num-seqs 32 \
  --distributed-executor-backend ray \
  --enable-log-requests --enable-log-outputs \
  --enable-auto-tool-choice --tool-call-parser qwen3_coder \
  --enable-prefix-caching \
  --reasoning-parser qwen3
