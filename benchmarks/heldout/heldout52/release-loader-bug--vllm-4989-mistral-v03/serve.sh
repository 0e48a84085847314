#!/bin/sh
# OpenAI-compatible server for the v0.3 Mistral instruct model, straight from the Hub.
python -m vllm.entrypoints.openai.api_server \
  --model mistralai/Mistral-7B-Instruct-v0.3 \
  --host 0.0.0.0 --port 8000
