set -x
python3 -m openrlhf.cli.train_ppo_ray \
   --ref_num_nodes 1 --ref_num_gpus_per_node 8 \
   --actor_num_nodes 1 --actor_num_gpus_per_node 8 \
   --vllm_num_engines 4 --vllm_tensor_parallel_size 2 \
   --colocate_all_models --vllm_gpu_memory_utilization 0.5 \
   --pretrain OpenRLHF/Llama-3-8b-sft-mixture \
   --prompt_data OpenRLHF/prompt-collection-v0.1 --input_key context_messages --apply_chat_template \
   --advantage_estimator group_norm --n_samples_per_prompt 8 --bf16
