#!/bin/sh
# Four RTX 4090s visible: the script sets tensor parallel to the number of devices.
CUDA_VISIBLE_DEVICES=0,1,2,3 python scripts/vllm_infer.py \
  --model_name_or_path ./models/qwen2.5-vl-7b-sft \
  --template qwen2_vl \
  --dataset mllm_demo
