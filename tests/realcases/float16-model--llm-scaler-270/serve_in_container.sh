#!/bin/bash
vllm serve --model /llm/models/Gemma-27B \
    --dtype float16 --enforce-eager --host 0.0.0.0 --port 8000 \
    --disable-sliding-window --gpu-memory-util 0.9 --no-enable-prefix-caching \
    --max-num-batched-tokens 8192 --max-model-len 8192 --block-size 64 -tp 4
