#!/usr/bin/env bash
python -m vllm.entrypoints.openai.api_server \
    --model meta-llama/Llama-2-7b-hf \
    --enable-lora \
    --max-lora-rank 64 \
    --lora-modules sql-lora=./adapters/sql-lora
