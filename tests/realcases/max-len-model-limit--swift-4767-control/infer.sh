#!/bin/bash
export MASTER_PORT=45670
export VLLM_ALLOW_LONG_MAX_MODEL_LEN=1
NPROC_PER_NODE=4 \
CUDA_VISIBLE_DEVICES=0,1,2,3 \
swift infer \
    --model Qwen/Qwen2.5-1.5B-Instruct \
    --infer_backend vllm \
    --val_dataset data/novel_50k.json \
    --gpu_memory_utilization 0.5 \
    --max_model_len 60000 \
    --tensor_parallel_size 4 \
    --max_new_tokens 2048
