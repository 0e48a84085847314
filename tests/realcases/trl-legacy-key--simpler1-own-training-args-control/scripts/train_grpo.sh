accelerate launch --num_processes=2 src/run_grpo.py \
    --config configs/grpo_config.yaml \
    --model_name_or_path Qwen/Qwen2.5-1.5B \
    --use_vllm True \
    --vllm_mode colocate \
    --vllm_gpu_memory_utilization 0.5
