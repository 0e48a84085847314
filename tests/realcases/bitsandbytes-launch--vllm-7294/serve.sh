#!/bin/bash
CUDA_VISIBLE_DEVICES=1 python -m vllm.entrypoints.openai.api_server \
    --model /home/workspace/Mistral-Large-Instruct-2407-bnb-4bit \
    --served-model-name Mistral-Large-Instruct-2407-bnb-4bit \
    --gpu-memory-utilization .6 --host 192.168.0.109 --port 8006
