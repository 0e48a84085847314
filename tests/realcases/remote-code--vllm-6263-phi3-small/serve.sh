#!/bin/bash
# OpenAI-compatible server for Phi-3-small at 128k, no trust flag
python -m vllm.entrypoints.openai.api_server \
  --model microsoft/Phi-3-small-128k-instruct \
  --port 8000
