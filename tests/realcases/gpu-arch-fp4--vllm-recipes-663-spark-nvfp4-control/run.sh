#!/bin/bash
docker run --rm --gpus all --ipc=host -p 8000:8000 \
    -v "$HOME/.cache/huggingface:/root/.cache/huggingface" \
    vllm/vllm-openai:v0.24.0 \
    nvidia/Qwen3.6-27B-NVFP4 --trust-remote-code --max-model-len 32768
