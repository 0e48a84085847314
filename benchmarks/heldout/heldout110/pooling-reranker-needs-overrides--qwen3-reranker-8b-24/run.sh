#!/bin/sh
VLLM_USE_V1=0 CUDA_VISIBLE_DEVICES=0 vllm serve Qwen3-Reranker-8B \
    --gpu_memory_utilization 0.9 \
    --port 10004 \
    --max-model-len 32768 \
    --task score
# then: POST /v1/rerank (or /score) from the client
