#!/bin/sh
python -m vllm.entrypoints.openai.api_server \
  --model ./MiniCPM-V-2 \
  --trust-remote-code \
  --host 0.0.0.0 \
  --port 9998 \
  --gpu-memory-utilization 0.45
