#!/bin/sh
# Four A100s visible; the vLLM engine takes tensor parallel = number of visible GPUs.
base_model_path=./models/Qwen1.5-72B-Chat
template=qwen
CUDA_VISIBLE_DEVICES=0,1,2,3 python src/cli_demo.py \
  --model_name_or_path $base_model_path \
  --template $template \
  --infer_backend vllm \
  --vllm_maxlen 1024
