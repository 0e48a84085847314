#!/bin/sh
# Qwen chat model on one Tesla V100 32GB, dtype left to the checkpoint
python -m vllm.entrypoints.openai.api_server \
  --model Qwen/Qwen-7B-Chat \
  --trust-remote-code \
  --port 8000
