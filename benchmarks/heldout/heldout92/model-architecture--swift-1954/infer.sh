#!/bin/sh
CUDA_VISIBLE_DEVICES=0 swift infer \
  --model_type qwen2-vl-7b-instruct \
  --infer_backend vllm \
  --max_model_len 4096
