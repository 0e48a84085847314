#!/bin/bash
python -m verl.trainer.main_ppo \
    data.train_files=$HOME/data/train.parquet \
    actor_rollout_ref.model.path=$SFT_MODEL_PATH \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.5 \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes=1
