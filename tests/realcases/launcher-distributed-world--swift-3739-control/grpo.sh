#!/bin/bash
# GRPO with the rollout engine colocated in each of the 8 torchrun ranks, split over 4 GPUs
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 \
NPROC_PER_NODE=8 \
swift rlhf \
    --rlhf_type grpo \
    --model Qwen/Qwen2.5-7B-Instruct \
    --train_type full \
    --dataset AI-MO/NuminaMath-TIR \
    --use_vllm true \
    --num_infer_workers 8 \
    --tensor_parallel_size 4 \
    --num_generations 8 \
    --output_dir output
