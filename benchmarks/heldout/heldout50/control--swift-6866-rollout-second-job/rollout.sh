#!/bin/bash
# Rollout server of the second GKD job on the node (the first job's server runs elsewhere on the node).
CUDA_VISIBLE_DEVICES=0 \
nohup swift rollout \
    --model Qwen/Qwen3-0.6B \
    --template qwen3_nothinking \
    --response_prefix '<think>\n\n</think>\n\n' \
    --vllm_max_model_len 20000 \
    --max_new_tokens 4096 \
    --vllm_gpu_memory_utilization 0.2 \
    --port 8001 &
