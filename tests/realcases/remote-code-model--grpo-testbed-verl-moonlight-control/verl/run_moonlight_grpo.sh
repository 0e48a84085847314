#!/bin/bash
set -x
HF_MODEL_PATH=moonshotai/Moonlight-16B-A3B
python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.max_prompt_length=1024 \
    data.max_response_length=2048 \
    actor_rollout_ref.model.path=$HF_MODEL_PATH \
    actor_rollout_ref.model.trust_remote_code=True \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=4 \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes=1
