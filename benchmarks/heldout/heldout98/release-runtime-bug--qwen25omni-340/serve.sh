#!/bin/bash
python -m vllm.entrypoints.openai.api_server \
    --model Qwen/Qwen2.5-Omni-7B \
    --port 8000
