#!/bin/sh
python -m vllm.entrypoints.openai.api_server \
  --model Qwen/Qwen3-VL-235B-A22B-Instruct \
  --served-model-name Qwen/Qwen3-VL-235B-A22B-Instruct \
  --tensor-parallel-size 8 \
  --mm-encoder-tp-mode data \
  --enable-expert-parallel \
  --host 0.0.0.0 \
  --port 8419 \
  --dtype bfloat16 \
  --gpu-memory-utilization 0.9 \
  --max-model-len 41960 \
  --max-num-batched-tokens 128 \
  --distributed-executor-backend mp
