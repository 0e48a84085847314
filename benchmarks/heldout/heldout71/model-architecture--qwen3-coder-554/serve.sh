#!/bin/sh
python -m vllm.entrypoints.openai.api_server \
  --model ./Qwen3-Coder-30B-A3B-Instruct-FP8
