CUDA_VISIBLE_DEVICES=0,1,2,3 \
NPROC_PER_NODE=4 \
swift rlhf \
    --rlhf_type grpo \
    --model Qwen/Qwen2.5-3B-Instruct \
    --reward_funcs accuracy format \
    --use_vllm true \
    --vllm_mode colocate \
    --vllm_gpu_memory_utilization 0.4 \
    --vllm_tensor_parallel_size 1 \
    --vllm_max_model_len 10240 \
    --vllm_enable_lora true \
    --sleep_level 1 \
    --tuner_type lora \
    --quant_method bnb \
    --quant_bits 4 \
    --torch_dtype bfloat16 \
    --dataset 'modelscope/gsm8k' \
    --max_length 2048 \
    --max_completion_length 8192 \
    --per_device_train_batch_size 4 \
    --num_generations 8
