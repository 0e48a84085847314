#!/bin/bash
MODEL_NAME=Qwen/Qwen3-4B-AWQ
docker run --rm --gpus all --ipc=host -p 8000:8000 \
    -v "$HOME/.cache/huggingface:/root/.cache/huggingface" \
    -e VLLM_USE_FLASH_ATTN=0 \
    vllm/vllm-openai:v0.9.0 --model "$MODEL_NAME"
