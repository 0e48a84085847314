#!/bin/bash
# GRPO with LoRA on a local Qwen2.5-1.5B fine-tune: three training processes, vLLM placed on the remaining GPU
CUDA_VISIBLE_DEVICES=0,1,2,3 \
NCCL_P2P_DISABLE="1" \
NCCL_IB_DISABLE="1" \
NPROC_PER_NODE=3 \
swift rlhf \
    --rlhf_type grpo \
    --model ./models/qwen1.5b-cot \
    --model_type qwen2_5 \
    --dataset ./data \
    --reward_funcs my_accuracy format \
    --use_vllm true \
    --vllm_device auto \
    --vllm_gpu_memory_utilization 0.7 \
    --vllm_max_model_len 2048 \
    --train_type lora \
    --lora_rank 8 \
    --lora_alpha 32 \
    --target_modules all-linear \
    --torch_dtype bfloat16 \
    --max_completion_length 512 \
    --num_train_epochs 2 \
    --per_device_train_batch_size 6 \
    --per_device_eval_batch_size 6 \
    --learning_rate 1e-6 \
    --gradient_accumulation_steps 8 \
    --eval_steps 50 \
    --save_steps 50 \
    --save_total_limit 2 \
    --logging_steps 10 \
    --max_length 2048 \
    --output_dir output \
    --warmup_ratio 0.05
