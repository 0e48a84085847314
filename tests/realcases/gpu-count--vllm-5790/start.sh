#!/bin/bash
CUDA_VISIBLE_DEVICES=0,1,2,3 python -m vllm.entrypoints.openai.api_server \
  --model Qwen/Qwen2-72B-Instruct-AWQ -tp 4 --gpu-memory-utilization 0.98 --disable-custom-all-reduce
