#!/bin/bash
# What the worker's engine does with MODEL_NAME=Qwen/Qwen2-VL-7B-Instruct: build an engine for it.
python -m vllm.entrypoints.openai.api_server \
  --model Qwen/Qwen2-VL-7B-Instruct \
  --max-model-len 8192
