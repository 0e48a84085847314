#!/bin/sh
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 API_PORT=8001 python src/api_demo.py \
    --model_name_or_path Qwen/Qwen1.5-72B-Chat-GPTQ-Int4 \
    --template qwen \
    --infer_backend vllm \
    --vllm_maxlen 8192
