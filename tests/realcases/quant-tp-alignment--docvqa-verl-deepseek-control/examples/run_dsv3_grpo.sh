#!/usr/bin/env bash
# GRPO on DeepSeek-V3 with a vLLM rollout and Megatron training.
# Before the first run: take `quantization_config` out of the checkpoint's config.json
# (the trainer holds bf16 weights and hands them to the rollout engine).
set -euo pipefail

MODEL_PATH=${MODEL_PATH:-deepseek-ai/DeepSeek-V3}
NNODES=${NNODES:-12}

python3 -m verl.trainer.main_ppo --config-name=ppo_megatron_trainer \
    algorithm.adv_estimator=grpo \
    data.train_files=$HOME/data/train.parquet \
    data.max_prompt_length=2048 \
    data.max_response_length=8192 \
    actor_rollout_ref.model.path="$MODEL_PATH" \
    actor_rollout_ref.actor.megatron.tensor_model_parallel_size=8 \
    actor_rollout_ref.actor.megatron.pipeline_model_parallel_size=12 \
    actor_rollout_ref.actor.megatron.expert_model_parallel_size=8 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=32 \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \
    actor_rollout_ref.rollout.n=8 \
    actor_rollout_ref.rollout.enforce_eager=True \
    trainer.nnodes=$NNODES \
    trainer.n_gpus_per_node=8
