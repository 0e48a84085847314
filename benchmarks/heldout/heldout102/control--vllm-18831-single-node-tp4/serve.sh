#!/usr/bin/env bash
vllm serve Qwen/Qwen3-30B-A3B \
  --served_model_name qwen3 \
  --pipeline-parallel-size 1 \
  --tensor-parallel-size 4 \
  --dtype float16 \
  --gpu-memory-utilization 0.95 \
  --max-model-len 4096 \
  --trust-remote-code \
  --host 0.0.0.0 --port 8009
