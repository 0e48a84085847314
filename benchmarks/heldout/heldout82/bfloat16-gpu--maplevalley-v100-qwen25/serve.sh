#!/bin/sh
# vLLM OpenAI server behind Open-WebUI, one Tesla V100 32GB, no dtype given
python -m vllm.entrypoints.openai.api_server \
  --model ./models/Qwen2.5-7B-Instruct \
  --served-model-name Qwen2.5-7B-Instruct \
  --host 0.0.0.0 \
  --port 8000
