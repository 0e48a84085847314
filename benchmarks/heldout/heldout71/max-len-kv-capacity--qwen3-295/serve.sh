#!/bin/sh
python -m vllm.entrypoints.openai.api_server \
  --served-model-name Qwen1.5-7B-Chat \
  --model ./models--Qwen--Qwen1.5-7B-Chat
