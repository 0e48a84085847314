#!/bin/sh
export MAX_NUM=6
CUDA_VISIBLE_DEVICES=0 swift infer \
    --model OpenGVLab/InternVL3-8B \
    --infer_backend vllm \
    --val_dataset ./data/test.jsonl \
    --max_new_tokens 1024 \
    --result_path ./infer_result.jsonl
