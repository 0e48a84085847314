#!/bin/sh
CUDA_VISIBLE_DEVICES=0,1 \
MAX_PIXELS=1003520 \
swift infer \
    --model Qwen/Qwen3-Omni-30B-A3B-Instruct \
    --adapters ckpt/Qwen3-Omni/v4-20251212-163234/checkpoint-3 \
    --merge_lora false \
    --stream true \
    --infer_backend vllm \
    --val_dataset ms-swift/data/train_test.jsonl \
    --vllm_gpu_memory_utilization 0.9 \
    --vllm_tensor_parallel_size 2 \
    --vllm_max_model_len 32768 \
    --max_new_tokens 2048 \
    --vllm_limit_mm_per_prompt '{"image": 3, "video": 3, "audio": 3}'
