#!/bin/sh
python -m vllm.entrypoints.openai.api_server --model ./glm-4v-9b --served-model-name glm-4v-9b \
    --tensor-parallel-size 2 --trust-remote-code --port 10085
