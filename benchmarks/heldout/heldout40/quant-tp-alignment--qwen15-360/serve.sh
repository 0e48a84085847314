#!/bin/bash
python -m vllm.entrypoints.openai.api_server \
    --model ./models/qwen1.5-14b-chat-sft-gptq-int4 \
    --served-model-name qwen1.5-14b-sft \
    --tensor-parallel-size 2
