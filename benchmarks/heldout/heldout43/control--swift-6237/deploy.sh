#!/bin/sh
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5 \
NPROC_PER_NODE=6 \
swift deploy \
    --model ./models/Qwen3-32B \
    --infer_backend vllm \
    --served_model_name Qwen3-32B \
    --vllm_max_model_len 8192 \
    --vllm_gpu_memory_utilization 0.9 \
    --vllm_data_parallel_size 3 \
    --vllm_tensor_parallel_size 2
