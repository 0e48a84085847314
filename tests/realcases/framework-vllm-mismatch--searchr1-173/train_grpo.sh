#!/bin/bash
export BASE_MODEL=Qwen/Qwen3-0.6B
python3 -m verl.trainer.main_ppo \
    data.train_files=data/nq_search/train.parquet \
    algorithm.adv_estimator=grpo \
    actor_rollout_ref.model.path=$BASE_MODEL \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \
    trainer.n_gpus_per_node=8 trainer.nnodes=1
