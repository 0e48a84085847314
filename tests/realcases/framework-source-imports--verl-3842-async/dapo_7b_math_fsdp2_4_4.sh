#!/bin/bash
# verl's fully-async recipe: 4 GPUs train, 4 GPUs roll out with vLLM's async server
python -m recipe.fully_async_policy.fully_async_main \
    data.train_files=$HOME/data/dapo-math-17k.parquet \
    data.max_prompt_length=2048 \
    data.max_response_length=8192 \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-Math-7B \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.mode=async \
    actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.8 \
    trainer.nnodes=1 trainer.n_gpus_per_node=4 \
    rollout.nnodes=1 rollout.n_gpus_per_node=4
