#!/bin/sh
CUDA_VISIBLE_DEVICES=0 swift deploy \
  --model_type deepseek-v2-lite-chat \
  --infer_backend vllm
