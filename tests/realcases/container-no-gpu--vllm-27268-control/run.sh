#!/usr/bin/env bash
# The same server with the GPUs handed to the container, as vLLM's Docker guide writes it.
docker run --runtime nvidia --gpus all \
    -v ~/.cache/huggingface:/root/.cache/huggingface \
    --env "HUGGING_FACE_HUB_TOKEN=$HF_TOKEN" \
    -p 8010:8000 --ipc=host \
    vllm/vllm-openai:v0.11.0 \
    --model mistralai/Mistral-7B-Instruct-v0.3
