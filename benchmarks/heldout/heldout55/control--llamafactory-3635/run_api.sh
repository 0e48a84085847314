#!/bin/bash
# OpenAI-style API of LLaMA-Factory on two GPUs, vLLM backend, eager mode, a fine-tuned Qwen1.5-14B-Chat
CUDA_VISIBLE_DEVICES=0,1 API_PORT=7864 nohup python src/api_demo.py \
    --model_name_or_path ./models/Qwen1.5-14B-Chat-test \
    --template qwen \
    --infer_backend vllm \
    --vllm_enforce_eager &
