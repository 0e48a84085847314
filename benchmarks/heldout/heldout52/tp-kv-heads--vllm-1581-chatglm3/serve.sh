#!/bin/bash
# ChatGLM3-6B behind the OpenAI server, split over four GPUs of one machine
python -m vllm.entrypoints.openai.api_server \
    --model THUDM/chatglm3-6b \
    --trust-remote-code \
    --tensor-parallel-size 4
