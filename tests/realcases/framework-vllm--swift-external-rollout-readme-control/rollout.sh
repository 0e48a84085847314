#!/bin/sh
# the rollout server of an external-mode GRPO run: two of the node's eight GPUs
CUDA_VISIBLE_DEVICES=6,7 \
swift rollout \
    --model Qwen/Qwen2.5-7B-Instruct \
    --data_parallel_size 2
