#!/bin/bash
set -x
ray job submit --address="http://127.0.0.1:8265" -- python3 -m openrlhf.cli.train_ppo_ray \
  --ref_num_nodes 1 --ref_num_gpus_per_node 2 --actor_num_nodes 1 --actor_num_gpus_per_node 4 \
  --vllm_num_engines 2 --vllm_tensor_parallel_size 1 --colocate_actor_ref \
  --pretrain OpenRLHF/Llama-3-8b-sft-mixture --remote_rm_url ./reward_func.py \
  --save_path ./checkpoint/llama3-8b-rlhf --micro_train_batch_size 8 --train_batch_size 128 \
  --micro_rollout_batch_size 16 --rollout_batch_size 1024 --max_epochs 1 --prompt_max_len 1024 \
  --generate_max_len 1024 --zero_stage 3 --bf16 --actor_learning_rate 5e-7 \
  --prompt_data OpenRLHF/prompt-collection-v0.1 --input_key context_messages --apply_chat_template \
  --normalize_reward --gradient_checkpointing
