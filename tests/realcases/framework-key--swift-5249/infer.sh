#!/bin/bash
export MASTER_PORT=45678
NPROC_PER_NODE=1 CUDA_VISIBLE_DEVICES=0 swift infer \
    --model Qwen/Qwen3-8B \
    --model_type qwen3 \
    --infer_backend vllm \
    --vllm_gpu_memory_utilization 0.5 \
    --val_dataset data/eval.jsonl \
    --max_new_tokens 4096 \
    --write_batch_size 1000
