#!/bin/bash
python -m vllm.entrypoints.openai.api_server \
    --model /sshfs/pretrains/Qwen/Qwen2-72B-Instruct \
    --trust-remote-code --tensor-parallel-size 8 --served-model-name qwen \
    --max-model-len 4096
