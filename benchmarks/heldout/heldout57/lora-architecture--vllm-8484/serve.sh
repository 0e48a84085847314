#!/bin/sh
vllm serve Qwen/Qwen2-VL-7B-Instruct \
  --max-model-len 8192 \
  --enable-lora \
  --lora-modules qwen2vl-lora=./adapters/qwen2vl-lora
