#!/bin/bash
CUDA_VISIBLE_DEVICES=4,5,6,7 vllm serve Qwen/Qwen2.5-14B-Instruct -tp 4 --port 8000 \
  --dtype float32 --enable-chunked-prefill true \
  --served-model-name Qwen2.5-14B-Instruct --max-model-len 8192
