#!/usr/bin/env bash
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "${SCRIPT_DIR}/common_env.sh"
sol_activate_env

"$(sol_python)" -m verl.trainer.main_ppo \
  algorithm.adv_estimator=grpo \
  data.max_prompt_length=128 \
  data.max_response_length=128 \
  actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \
  actor_rollout_ref.rollout.name=vllm \
  actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
  actor_rollout_ref.rollout.gpu_memory_utilization=0.10 \
  actor_rollout_ref.rollout.max_num_seqs=4 \
  trainer.n_gpus_per_node=1 \
  trainer.nnodes=1
