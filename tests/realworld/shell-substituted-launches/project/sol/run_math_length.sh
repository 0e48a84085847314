#!/usr/bin/env bash
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "${SCRIPT_DIR}/common_env.sh"
sol_activate_env
PYTHON_BIN="$(sol_python)"

cmd=(
  "${PYTHON_BIN}" -m verl.trainer.main_ppo
  algorithm.adv_estimator=grpo
  actor_rollout_ref.model.path=Qwen/Qwen2.5-Math-1.5B
  actor_rollout_ref.rollout.name=vllm
  actor_rollout_ref.rollout.tensor_model_parallel_size=2
  actor_rollout_ref.rollout.gpu_memory_utilization=0.5
  actor_rollout_ref.rollout.max_num_batched_tokens=4096
  trainer.n_gpus_per_node=2
  trainer.nnodes=1
)
"${cmd[@]}" "$@"
