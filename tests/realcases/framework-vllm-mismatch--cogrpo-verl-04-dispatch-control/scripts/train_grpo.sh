#!/bin/bash
set -x
model=Qwen/Qwen2.5-7B-Instruct
python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.max_prompt_length=1024 \
    data.max_response_length=2048 \
    actor_rollout_ref.model.path="${model}" \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \
    actor_rollout_ref.rollout.tensor_model_parallel_size=2 \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes=1
