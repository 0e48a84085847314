#!/bin/sh
CUDA_VISIBLE_DEVICES=0,1 \
swift deploy \
    --infer_backend vllm \
    --vllm_tensor_parallel_size 2 \
    --vllm_max_model_len 8192 \
    --max_new_tokens 2048 \
    --vllm_max_num_seqs 1 \
    --vllm_gpu_memory_utilization 0.98 \
    --vllm_limit_mm_per_prompt '{"image": 2, "video": 0}' \
    --model Qwen/Qwen2.5-VL-72B-Instruct
