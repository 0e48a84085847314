#!/bin/sh
CUDA_VISIBLE_DEVICES=0 vllm serve ./saves/qwen3.5-9b/full/sft \
  --served-model-name qwen3.5-sft \
  --max-model-len 32768 \
  --port 8000
