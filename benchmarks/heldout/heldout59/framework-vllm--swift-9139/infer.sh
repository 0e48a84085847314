#!/bin/sh
MODEL_PATH=./models/Qwen3.5-4B
CUDA_VISIBLE_DEVICES=0 swift infer \
    --model_type qwen3_5 \
    --model "$MODEL_PATH" \
    --infer_backend vllm \
    --enable_thinking false
