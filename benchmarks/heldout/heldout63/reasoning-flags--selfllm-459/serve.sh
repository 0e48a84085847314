#!/bin/sh
# Qwen3-8B downloaded from ModelScope into the data disk, served as in the tutorial
export VLLM_USE_MODELSCOPE=true
vllm serve models/Qwen3-8B \
  --served-model-name Qwen3-8B \
  --max_model_len 8192 \
  --enable-reasoning \
  --reasoning-parser deepseek_r1
