#!/bin/bash
python -m vllm.entrypoints.openai.api_server --model ./models/deepseek-coder-7b-instruct-v1.5 \
  --enable-lora --lora-modules coder=./adapters/coder --port 8000
