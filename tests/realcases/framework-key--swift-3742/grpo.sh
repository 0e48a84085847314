#!/bin/bash
# GRPO of a 72B AWQ vision-language model with vLLM colocated; the two engine switches are
# spelled as `swift infer` takes them
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 \
NPROC_PER_NODE=8 \
swift rlhf \
    --rlhf_type grpo \
    --model Qwen/Qwen2.5-VL-72B-Instruct-AWQ \
    --train_type lora \
    --dataset data/train.jsonl \
    --use_vllm true \
    --vllm_gpu_memory_utilization 0.6 \
    --disable_custom_all_reduce true \
    --enforce_eager true \
    --num_generations 8 \
    --output_dir output
