#!/bin/bash
docker run --rm --gpus all --ipc=host --network host \
    -v "$HOME/.cache/huggingface:/root/.cache/huggingface" \
    vllm/vllm-openai:v0.12.0-aarch64 \
    --model lukealonso/GLM-4.6-NVFP4 --tensor-parallel-size 2 --distributed-executor-backend ray
