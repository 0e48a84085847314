#!/bin/bash
python -m vllm.entrypoints.openai.api_server \
    --model Qwen/Qwen2-72B-Instruct \
    --tensor-parallel-size 4 \
    --max-model-len 8192 \
    --use-v2-block-manager \
    --speculative-model Qwen/Qwen2-1.5B-Instruct \
    --num-speculative-tokens 4
