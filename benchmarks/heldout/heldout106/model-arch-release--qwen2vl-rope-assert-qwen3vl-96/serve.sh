#!/bin/bash
python -m vllm.entrypoints.openai.api_server \
  --served-model-name Qwen2-VL-7B-Instruct \
  --model Qwen/Qwen2-VL-7B-Instruct \
  --dtype float16
