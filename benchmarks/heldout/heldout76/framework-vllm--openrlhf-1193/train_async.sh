#!/bin/sh
# asynchronous PPO/GRPO: vLLM engines on their own GPUs, weights broadcast over NCCL
ray start --head --num-gpus 8
ray job submit --address="http://127.0.0.1:8265" \
  --runtime-env-json='{"working_dir": "."}' \
  -- python3 -m openrlhf.cli.train_ppo_ray \
  --ref_num_nodes 1 \
  --ref_num_gpus_per_node 2 \
  --actor_num_nodes 1 \
  --actor_num_gpus_per_node 4 \
  --vllm_num_engines 2 \
  --vllm_tensor_parallel_size 1 \
  --vllm_gpu_memory_utilization 0.8 \
  --vllm_sync_backend nccl \
  --async_train \
  --pretrain Qwen/Qwen3-4B \
  --advantage_estimator group_norm \
  --use_kl_loss \
  --init_kl_coef 1e-3 \
  --micro_train_batch_size 4 \
  --train_batch_size 128 \
  --micro_rollout_batch_size 16 \
  --rollout_batch_size 128 \
  --n_samples_per_prompt 8 \
  --prompt_max_len 1024 \
  --generate_max_len 1024 \
  --zero_stage 3 \
  --bf16 \
  --actor_learning_rate 5e-7 \
  --prompt_data OpenRLHF/prompt-collection-v0.1 \
  --input_key context_messages \
  --apply_chat_template \
  --remote_rm_url http://127.0.0.1:5000/get_reward \
  --save_path ./checkpoint/qwen3-4b-async
