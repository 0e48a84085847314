#!/bin/bash
CUDA_VISIBLE_DEVICES=0 trl vllm-serve --model Qwen/Qwen3-4B \
    --gpu-memory-utilization 0.5 --tensor_parallel_size 1 --data_parallel_size 1
