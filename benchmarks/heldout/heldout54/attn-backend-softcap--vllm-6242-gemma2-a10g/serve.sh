#!/bin/sh
# Gemma 2 9B instruct through the OpenAI server, default attention backend
python -m vllm.entrypoints.openai.api_server \
  --model google/gemma-2-9b-it \
  --port 8000
