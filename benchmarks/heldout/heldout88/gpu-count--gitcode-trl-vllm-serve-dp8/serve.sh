#!/bin/sh
CUDA_VISIBLE_DEVICES=0,1 trl vllm-serve \
  --model Qwen/Qwen2.5-7B-Instruct \
  --tensor_parallel_size 1 \
  --data_parallel_size 8
