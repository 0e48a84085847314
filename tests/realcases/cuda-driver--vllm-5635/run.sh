#!/bin/bash
docker run --runtime nvidia --gpus all -p 8000:8000 --ipc=host \
    -v ~/.cache/huggingface:/root/.cache/huggingface \
    vllm/vllm-openai:v0.5.0 \
    --model Qwen/Qwen2-7B-Instruct --dtype half
