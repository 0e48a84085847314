#!/bin/sh
# Serve the base model with the LLaMA-Factory LoRA registered at start-up (the report's command is cut off after
# "python -m vllm.entry"; this is the usual OpenAI-server form with a static LoRA).
CUDA_VISIBLE_DEVICES=0 python -m vllm.entrypoints.openai.api_server \
    --model /home/data/modelscopes-models/Qwen3-1.7B \
    --enable-lora \
    --lora-modules ner=./lora \
    --port 8000
