#!/bin/bash
# Qwen3-VL-8B with one language-model adapter
vllm serve Qwen/Qwen3-VL-8B-Instruct \
  --max-model-len 16384 \
  --enable-lora --max-lora-rank 64 \
  --lora-modules vl-ft=./adapters/vl-ft
