#!/bin/sh
CUDA_VISIBLE_DEVICES=6,7 \
swift rollout \
  --model Qwen/Qwen2.5-VL-7B-Instruct \
  --vllm_data_parallel_size 2
