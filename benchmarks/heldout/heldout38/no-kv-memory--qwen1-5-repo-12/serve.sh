#!/bin/bash
python -m vllm.entrypoints.openai.api_server --model data/Qwen1.5-14B-Chat \
    --host 0.0.0.0 --port 30005 --dtype half --gpu-memory-utilization 0.95
