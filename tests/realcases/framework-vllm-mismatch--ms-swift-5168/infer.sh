#!/bin/bash
CUDA_VISIBLE_DEVICES=0 swift infer \
    --model Qwen/Qwen2.5-7B-Instruct \
    --infer_backend vllm \
    --vllm_max_model_len 8192 \
    --stream true
