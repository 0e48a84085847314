#!/bin/bash
python -m vllm.entrypoints.openai.api_server \
    --model /models/Qwen2.5-72B-Instruct-AWQ \
    --tensor-parallel-size 4 \
    --max-num-seqs 64 \
    --enable-prefix-caching \
    --use-v2-block-manager \
    --speculative-model /models/Qwen2.5-14B-Instruct-AWQ \
    --num-speculative-tokens 3 \
    --speculative-draft-tensor-parallel-size 4 \
    --port 8000
