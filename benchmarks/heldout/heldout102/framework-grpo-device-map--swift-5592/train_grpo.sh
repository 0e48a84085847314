#!/usr/bin/env bash
# rollout server on GPU 0 is started separately (swift rollout); training sees GPUs 1-3
CUDA_VISIBLE_DEVICES=1,2,3 \
swift rlhf \
  --rlhf_type grpo \
  --model openai/gpt-oss-20b \
  --model_type gpt_oss \
  --train_type lora \
  --lora_rank 128 \
  --torch_dtype bfloat16 \
  --use_vllm true \
  --vllm_mode server \
  --vllm_server_host 0.0.0.0 \
  --vllm_server_port 8000 \
  --async_generate true \
  --dataset training_data.jsonl \
  --external_plugins plugin.py \
  --per_device_train_batch_size 2 \
  --num_train_epochs 5 \
  --output_dir out
