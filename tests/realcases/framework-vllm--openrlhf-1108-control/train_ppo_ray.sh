#!/bin/bash
ray job submit --address="http://127.0.0.1:8265" -- python3 -m openrlhf.cli.train_ppo_ray \
  --ref_num_nodes 1 --ref_num_gpus_per_node 2 --reward_num_nodes 1 --reward_num_gpus_per_node 2 \
  --actor_num_nodes 1 --actor_num_gpus_per_node 2 --vllm_num_engines 2 --vllm_tensor_parallel_size 1 \
  --pretrain Qwen/Qwen2.5-7B-Instruct --reward_pretrain Qwen/Qwen2.5-7B-Instruct \
  --save_path ./checkpoint/qwen2.5-7b-ppo --micro_train_batch_size 4 --train_batch_size 128 \
  --micro_rollout_batch_size 8 --rollout_batch_size 512 --max_epochs 1 --prompt_max_len 1024 \
  --generate_max_len 1024 --zero_stage 3 --bf16 --actor_learning_rate 5e-7 --critic_learning_rate 9e-6 \
  --prompt_data OpenRLHF/prompt-collection-v0.1 --input_key context_messages --apply_chat_template
