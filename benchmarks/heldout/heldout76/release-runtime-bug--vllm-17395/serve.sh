#!/bin/sh
# the small demo server (not the OpenAI one)
python3 -m vllm.entrypoints.api_server \
  --model Qwen/Qwen2.5-0.5B-Instruct \
  --host 0.0.0.0 \
  --port 8000
