#!/usr/bin/env bash
python -m vllm.entrypoints.openai.api_server \
  --served-model-name qwen2-vl \
  --model Qwen/Qwen2-VL-2B-Instruct-GPTQ-Int4 \
  --port 8000
