#!/usr/bin/env bash
# trainer of a server-mode GRPO run; the rollout server (swift rollout) runs on another node
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 \
NPROC_PER_NODE=8 \
swift rlhf \
    --rlhf_type grpo \
    --model Qwen/Qwen2.5-7B-Instruct \
    --train_type lora \
    --use_vllm true \
    --vllm_mode server \
    --vllm_server_host 10.0.0.2 \
    --vllm_server_port 8000 \
    --reward_funcs accuracy \
    --dataset AI-MO/NuminaMath-TIR#1000 \
    --torch_dtype bfloat16 \
    --num_generations 8 \
    --per_device_train_batch_size 1 \
    --output_dir output
