#!/bin/sh
CUDA_VISIBLE_DEVICES=0 \
swift rollout \
    --model Qwen2.5-VL-3B-Instruct \
    --tensor_parallel_size 2 \
    --data_parallel_size 1
