#!/bin/sh
# Gemma 2 27B re-published with dynamic rope scaling, one GPU
CUDA_VISIBLE_DEVICES=1 VLLM_LOGGING_LEVEL=DEBUG python -m vllm.entrypoints.openai.api_server \
  --host 0.0.0.0 --port 8000 \
  --model ./models/gemma-2-27b-it-fp8-dynamic-rope \
  --trust-remote-code \
  --served-model-name gemma-2-27b-it-fp8-dynamic-rope \
  --gpu_memory_utilization 0.9 \
  --max-model-len 16384 \
  --enable-prefix-caching \
  --kv-cache-dtype fp8_e5m2 \
  --quantization fp8
