#!/usr/bin/env bash
docker run -d --gpus all --name qwen-vllm-gptq -p 8000:8000 \
    -v /data/models/Qwen-14B-Chat-Int4:/models/Qwen-14B-Chat-Int4 \
    qwen-vllm-gptq \
    python -m vllm.entrypoints.openai.api_server \
        --model /models/Qwen-14B-Chat-Int4 \
        --quantization gptq --dtype float16 \
        --tensor-parallel-size 2 \
        --trust-remote-code --host 0.0.0.0 --port 8000
