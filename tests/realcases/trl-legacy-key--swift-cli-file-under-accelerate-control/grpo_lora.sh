# ms-swift's GRPO run started through accelerate on the CLI file itself (what `swift rlhf` runs)
NPROC_PER_NODE=8 \
accelerate launch --config_file "./fsdp2.json" \
    swift/cli/rlhf.py \
        --rlhf_type grpo \
        --model Qwen/Qwen2.5-7B-Instruct \
        --reward_funcs accuracy \
        --use_vllm true \
        --vllm_mode colocate \
        --vllm_gpu_memory_utilization 0.4 \
        --vllm_tensor_parallel_size 4 \
        --vllm_max_model_len 4096 \
        --tuner_type lora \
        --dataset AI-MO/NuminaMath-TIR#1000 \
        --max_completion_length 2048 \
        --num_generations 4 \
        --sleep_level 2
