#!/bin/sh
CUDA_VISIBLE_DEVICES=3,4 \
swift rollout \
    --model Qwen/Qwen2.5-VL-3B-Instruct
