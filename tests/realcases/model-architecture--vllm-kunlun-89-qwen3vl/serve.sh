#!/bin/sh
python -m vllm.entrypoints.openai.api_server \
  --host 0.0.0.0 \
  --port 8035 \
  --model Qwen/Qwen3-VL-32B-Instruct
