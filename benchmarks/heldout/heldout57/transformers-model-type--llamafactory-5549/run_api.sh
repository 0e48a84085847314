#!/bin/sh
CUDA_VISIBLE_DEVICES=0 API_PORT=8005 llamafactory-cli api \
  --model_name_or_path ./models/Llama-3.2-11B-Vision-Instruct \
  --template llama3 \
  --infer_backend vllm \
  --vllm_maxlen 8000 \
  --vllm_gpu_util 0.8 \
  --vllm_enforce_eager true
