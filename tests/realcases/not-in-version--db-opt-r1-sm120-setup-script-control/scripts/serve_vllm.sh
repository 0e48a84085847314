#!/bin/bash
set -e
MODEL_PATH="${MODEL_PATH:-/data/models/qwen3_4b_sft_merged}"
python -m vllm.entrypoints.openai.api_server \
    --model "$MODEL_PATH" \
    --served-model-name qwen3-4b-sft \
    --port 8000 \
    --max-model-len 16384 \
    --gpu-memory-utilization 0.90 \
    --dtype bfloat16 \
    --disable-log-requests
