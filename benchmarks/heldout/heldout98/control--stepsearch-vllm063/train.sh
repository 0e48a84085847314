#!/bin/bash
export CUDA_VISIBLE_DEVICES=0,1,2,3
export BASE_MODEL=Qwen/Qwen2.5-3B
python3 -m verl.trainer.main_ppo \
    data.train_files=$DATA_DIR/train.parquet \
    data.val_files=$DATA_DIR/test.parquet \
    data.max_prompt_length=4096 \
    data.max_response_length=800 \
    actor_rollout_ref.model.path=$BASE_MODEL \
    actor_rollout_ref.model.use_remove_padding=false \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=4 \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \
    critic.model.path=$BASE_MODEL \
    trainer.n_gpus_per_node=4 \
    trainer.nnodes=1
