#!/bin/bash
# GRPO on Qwen2-Audio-7B-Instruct with ms-swift, vLLM colocated in the 8 training processes
export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7
export NPROC_PER_NODE=8

swift rlhf \
    --rlhf_type grpo \
    --model /home/user/models/qwen2.5-audio-7B-ins \
    --model_type qwen2_audio \
    --reward_funcs external_my_reward \
    --reward_weights 1 \
    --use_vllm true \
    --vllm_mode colocate \
    --vllm_gpu_memory_utilization 0.35 \
    --sleep_level 1 \
    --offload_optimizer false \
    --offload_model false \
    --train_type full \
    --torch_dtype bfloat16 \
    --dataset /home/user/data/30000_RL.json \
    --external_plugins examples/train/grpo/plugin/plugin.py \
    --max_completion_length 2048 \
    --num_train_epochs 1 \
    --per_device_train_batch_size 8 \
    --per_device_eval_batch_size 8 \
    --learning_rate 1e-6 \
    --gradient_accumulation_steps 2 \
    --eval_steps 300 \
    --save_steps 300 \
    --save_total_limit 25 \
    --logging_steps 5 \
    --max_length 8192 \
    --output_dir output/GRPO_Qwen-Audio \
    --warmup_ratio 0.05 \
    --dataloader_num_workers 4 \
    --num_generations 32 \
    --temperature 1. \
    --deepspeed zero3 \
    --log_completions true \
    --report_to wandb \
    --num_iterations 1 \
    --beta 0.001
