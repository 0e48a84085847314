#!/bin/bash
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 API_PORT=5000 llamafactory-cli api \
    --model_name_or_path /root/Qwen2-VL-72B-Instruct-GPTQ-Int4 \
    --template qwen2_vl \
    --infer_backend vllm \
    --vllm_enforce_eager
