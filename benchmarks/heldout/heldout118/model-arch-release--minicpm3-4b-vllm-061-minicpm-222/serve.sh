#!/bin/bash
# MiniCPM3-4B on the stock vLLM release installed in the container.
python -m vllm.entrypoints.openai.api_server \
  --model openbmb/MiniCPM3-4B \
  --trust-remote-code \
  --port 8000
