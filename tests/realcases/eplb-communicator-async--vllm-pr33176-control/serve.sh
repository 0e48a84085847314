#!/bin/bash
# Synchronous EPLB (use_async defaults to false here) with the PyNccl weight communicator
vllm serve Qwen/Qwen3-30B-A3B-Instruct-2507-FP8 \
  -tp 1 -dp 4 --enable-expert-parallel \
  --max-model-len 4096 \
  --enable-eplb \
  --eplb-config.window_size 10 --eplb-config.step_interval 10 \
  --eplb-config.num_redundant_experts 16 \
  --eplb-config.communicator pynccl
