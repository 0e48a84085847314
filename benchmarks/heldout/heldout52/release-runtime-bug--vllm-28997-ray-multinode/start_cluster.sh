#!/bin/bash
# Two nodes with four GPUs each joined into one Ray cluster (ray status: 8.0 GPU), then one server
# that spans both nodes with tensor parallelism 8.
# on the head node:   ray start --head --num-gpus 4
# on the worker node: ray start --address=<head-ip>:6379 --num-gpus 4
vllm serve --model openai/gpt-oss-120b \
    --tensor-parallel-size 8 \
    --distributed-executor-backend ray
