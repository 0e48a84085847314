#!/bin/bash
# Mistral 7B v0.1 with prefix caching: the sliding window switched off for it, and a longer context asked for
python3 -m vllm.entrypoints.openai.api_server --model mistralai/Mistral-7B-v0.1 \
    --enable-prefix-caching --disable-sliding-window --max-model-len 8192
