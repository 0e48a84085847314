#!/bin/sh
# Llama 3.2 Vision (Mllama) through the OpenAI server of an older vLLM install
python -m vllm.entrypoints.openai.api_server \
  --model ./models/Llama-3.2-11B-Vision-Instruct \
  --max-model-len 8192
