#!/bin/bash
python -m vllm.entrypoints.openai.api_server \
    --model meta-llama/Llama-4-Scout-17B-16E-Instruct \
    --tensor-parallel-size 8 \
    --dtype half
