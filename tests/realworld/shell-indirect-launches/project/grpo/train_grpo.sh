#!/bin/bash
# GRPO on GSM8K with ms-swift, its CLI file found through the installed package
MODEL_PATH="Qwen/Qwen2.5-0.5B-Instruct"
RLHF_SCRIPT=$(python -c 'import swift, os; print(os.path.dirname(swift.__file__) + "/cli/rlhf.py")')

python -m torch.distributed.run \
    --nproc_per_node 1 \
    "$RLHF_SCRIPT" \
    --rlhf_type grpo \
    --model $MODEL_PATH \
    --use_vllm true \
    --vllm_mode colocate \
    --vllm_gpu_memory_utilization 0.4 \
    --vllm_max_model_len 2048 \
    --num_generations 4
