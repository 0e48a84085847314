#!/bin/bash
# LLaMA-Factory 0.6 run from its checkout: the demo API script takes the model arguments as flags
export CUDA_VISIBLE_DEVICES=0
API_PORT=8000 python src/api_demo.py \
    --model_name_or_path baichuan-inc/Baichuan2-7B-Chat \
    --template baichuan2 \
    --finetuning_type lora \
    --infer_backend vllm
