#!/bin/bash
CUDA_VISIBLE_DEVICES=0 swift infer \
    --model Qwen/Qwen2.5-VL-7B-Instruct \
    --infer_backend vllm \
    --max_model_len 8192
