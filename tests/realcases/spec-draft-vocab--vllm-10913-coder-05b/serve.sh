#!/bin/sh
# the models are mounted under /app/models in the container the report runs
vllm serve /app/models/Qwen2.5-Coder-32B-Instruct-AWQ \
    --tensor-parallel-size 2 \
    --max-model-len 23568 \
    --speculative-model /app/models/Qwen2.5-Coder-0.5B-Instruct-AWQ \
    --num-speculative-tokens 5
