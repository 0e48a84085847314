#!/bin/sh
vllm serve Qwen/Qwen3-Reranker-4B \
  --task score \
  --max-model-len 8192 \
  --host 0.0.0.0 --port 8000
