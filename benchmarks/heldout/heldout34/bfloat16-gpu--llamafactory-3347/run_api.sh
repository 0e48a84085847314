#!/bin/bash
CUDA_VISIBLE_DEVICES=0 API_PORT=8000 python src/api_demo.py \
    --model_name_or_path baichuan-inc/Baichuan2-7B-Chat \
    --template baichuan2 \
    --finetuning_type lora \
    --infer_backend vllm
