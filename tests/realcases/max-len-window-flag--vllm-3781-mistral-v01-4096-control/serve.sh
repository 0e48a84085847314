#!/bin/bash
python3 -m vllm.entrypoints.openai.api_server --model mistralai/Mistral-7B-v0.1 \
    --enable-prefix-caching --disable-sliding-window --max-model-len 4096
