#!/bin/bash
# GRPO with a LoRA tuner and ms-swift's vLLM rollout, on two V100s in fp16; no prefix-caching flag written
CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=1 swift rlhf \
    --rlhf_type grpo \
    --model deepseek-ai/DeepSeek-R1-Distill-Qwen-7B \
    --train_type lora \
    --torch_dtype float16 \
    --use_vllm true \
    --vllm_device auto \
    --vllm_gpu_memory_utilization 0.9 \
    --vllm_max_model_len 1024 \
    --reward_funcs accuracy format \
    --dataset AI-MO/NuminaMath-TIR \
    --num_generations 4 \
    --output_dir output
