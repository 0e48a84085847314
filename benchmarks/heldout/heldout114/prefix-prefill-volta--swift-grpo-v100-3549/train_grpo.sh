#!/bin/bash
# ms-swift examples: GRPO lora_vllm, as run on 4x V100 (two visible)
# pip install math_verify # reward function
# pip install git+https://github.com/huggingface/trl.git
# GPU memory: 2 * 80GiB
export NPROC_PER_NODE=1

MASTER_PORT=29501 \
CUDA_VISIBLE_DEVICES=0,3 \
swift rlhf \
    --rlhf_type grpo \
    --model ./modelscope/unsloth/DeepSeek-R1-Distill-Qwen-7B \
    --reward_funcs accuracy format \
    --train_type lora \
    --use_vllm true \
    --vllm_device auto \
    --vllm_gpu_memory_utilization 1.0 \
    --vllm_max_model_len 1024 \
    --lora_rank 8 \
    --lora_alpha 8 \
    --target_modules all-linear \
    --torch_dtype float16 \
    --dataset 'AI-MO/NuminaMath-TIR#1000' \
    --max_completion_length 1024 \
    --num_train_epochs 1 \
    --per_device_train_batch_size 4 \
    --per_device_eval_batch_size 4 \
    --learning_rate 1e-5 \
    --gradient_accumulation_steps 1 \
    --eval_steps 100 \
    --save_steps 100 \
    --save_total_limit 2 \
    --logging_steps 5 \
    --max_length 2048 \
    --output_dir output \
    --warmup_ratio 0.05 \
    --dataloader_num_workers 4 \
    --dataset_num_proc 4 \
    --num_generations 4 \
    --temperature 0.9 \
    --deepspeed zero2 \
    --system './prompt.txt' \
    --log_completions true
