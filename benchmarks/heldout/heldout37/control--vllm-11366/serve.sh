#!/bin/sh
# The plain (non-OpenAI) API server on a local AWQ copy of Qwen2.5-7B.
python -m vllm.entrypoints.api_server \
  --host 127.0.0.1 \
  --tensor-parallel-size 1 \
  --enforce-eager \
  --trust-remote-code \
  --gpu-memory-utilization 0.9 \
  --model Qwen/Qwen2.5-7B-Instruct-AWQ \
  --port 9122
