#!/bin/bash
# Data-parallel MoE with EPLB rearranging asynchronously (the default) and the NCCL weight communicator named
vllm serve Qwen/Qwen3-30B-A3B-Instruct-2507-FP8 \
  -dp 4 --enable-expert-parallel \
  --enable-eplb \
  --eplb-config.communicator torch_nccl
