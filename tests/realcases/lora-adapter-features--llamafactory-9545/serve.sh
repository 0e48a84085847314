#!/bin/sh
# base model plus the LLaMA-Factory adapter registered at start-up
CUDA_VISIBLE_DEVICES=0 python -m vllm.entrypoints.openai.api_server \
    --model /data/models/Qwen3-1.7B \
    --enable-lora \
    --lora-modules ner=./saves/ner \
    --port 8000
