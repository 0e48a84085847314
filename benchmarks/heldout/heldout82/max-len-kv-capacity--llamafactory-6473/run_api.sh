#!/bin/sh
CUDA_VISIBLE_DEVICES=0 API_PORT=8000 llamafactory-cli api \
  --model_name_or_path ./models/Qwen1.5-14B-Chat-merged \
  --adapter_name_or_path ./saves/Qwen-14B/lora/sft \
  --template qwen \
  --finetuning_type lora \
  --infer_backend vllm \
  --vllm_enforce_eager \
  --trust_remote_code=True
