#!/bin/bash
# Unsloth's bitsandbytes 4-bit upload of Llama 4 Scout (16 experts) behind the OpenAI server
python3 -m vllm.entrypoints.openai.api_server \
  --model unsloth/Llama-4-Scout-17B-16E-Instruct-unsloth-bnb-4bit \
  --served-model-name Llama-4-Scout \
  --port 9000 \
  --max-model-len 100000
