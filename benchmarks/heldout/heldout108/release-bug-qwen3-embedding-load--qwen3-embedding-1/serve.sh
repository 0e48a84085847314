#!/bin/sh
vllm serve \
    Qwen/Qwen3-Embedding-0.6B \
    --served-model-name qwen3-embedding \
    --trust-remote-code \
    --host 127.0.0.1 \
    --port 6911 \
    --gpu_memory_utilization 0.5 \
    --task embedding
