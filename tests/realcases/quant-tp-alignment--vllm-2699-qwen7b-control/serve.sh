#!/bin/bash
# two RTX 4090s, the GPTQ checkpoint in a local folder (the report mounts it into vllm/vllm-openai:v0.2.7)
python -m vllm.entrypoints.openai.api_server \
    --model ./Qwen-7B-Chat-Int4 \
    --trust-remote-code \
    --dtype auto \
    --tensor-parallel-size 2 \
    --quantization gptq
