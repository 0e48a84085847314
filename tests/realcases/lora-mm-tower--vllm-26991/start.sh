#!/bin/bash
python3 -m vllm.entrypoints.openai.api_server \
    --model /models/Qwen3-vl-4B-Instruct/ --host 0.0.0.0 --port 8000 \
    --served-model-name Qwen3-vl-4B-Instruct --trust-remote-code \
    --gpu-memory-utilization 0.8 --max-model-len 8192 --api-key "$API_KEY" --enable-lora
