#!/bin/sh
NPROC_PER_NODE=1 \
CUDA_VISIBLE_DEVICES=0 \
swift infer \
    --model Qwen/Qwen3-8B \
    --temperature 0 \
    --infer_backend vllm \
    --val_dataset data/dev.jsonl \
    --use_hf 1 \
    --rope_scaling 'yarn' \
    --max_length 128000 \
    --max_model_len 131072 \
    --max_new_tokens 1024
