#!/bin/bash
CUDA_VISIBLE_DEVICES=0 swift infer \
  --adapters output/v0-20250514/checkpoint-500 \
  --infer_backend vllm \
  --stream true \
  --max_new_tokens 2048
