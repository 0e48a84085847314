#!/bin/sh
python3 -m vllm.entrypoints.api_server \
  --model Qwen/Qwen2.5-0.5B-Instruct \
  --gpu-memory-utilization 0.95 \
  --port 21131 \
  --trust-remote-code
