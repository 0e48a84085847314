#!/bin/bash
ray job submit --address="http://127.0.0.1:8265" -- python3 -m openrlhf.cli.train_ppo_ray \
  --ref_num_nodes 2 --ref_num_gpus_per_node 8 \
  --actor_num_nodes 2 --actor_num_gpus_per_node 8 \
  --vllm_num_engines 16 --vllm_tensor_parallel_size 1 \
  --colocate_all_models --vllm_enable_sleep --vllm_gpu_memory_utilization 0.5 \
  --pretrain Qwen/Qwen2.5-7B-Instruct --zero_stage 1 --bf16 \
  --micro_train_batch_size 4 --train_batch_size 128
