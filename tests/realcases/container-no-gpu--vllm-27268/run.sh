#!/usr/bin/env bash
# Serve a Mistral model from vLLM's image on a GCP Container-Optimized OS VM; nothing hands the
# container a GPU (no --gpus, no device, no runtime).
docker run -v ~/.cache/huggingface:/root/.cache/huggingface \
    --env "HUGGING_FACE_HUB_TOKEN=$HF_TOKEN" \
    -p 8010:8000 --ipc=host \
    vllm/vllm-openai:v0.11.0 \
    --model mistralai/Mistral-7B-Instruct-v0.3
