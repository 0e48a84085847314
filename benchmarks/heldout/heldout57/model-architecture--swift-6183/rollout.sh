#!/bin/sh
CUDA_VISIBLE_DEVICES=6,7 \
swift rollout \
  --model ./models/Qwen3-VL-4B-Instruct/ \
  --vllm_data_parallel_size 2
