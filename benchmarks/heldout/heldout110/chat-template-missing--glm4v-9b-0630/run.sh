#!/bin/sh
# Reporter's launch; the local ModelScope snapshot of THUDM/glm-4v-9b is represented by ./glm-4v-9b (configs only).
CUDA_VISIBLE_DEVICES=5,7 python -m vllm.entrypoints.openai.api_server \
    --model=./glm-4v-9b \
    --served-model-name=glm-4v-9b \
    --device=cuda \
    --port=10085 \
    --host=0.0.0.0 \
    --tensor-parallel-size=2 \
    --dtype=auto \
    --trust-remote-code
# then: POST /v1/chat/completions {"model": "glm-4v-9b", "messages": [...]}
