#!/bin/sh
CUDA_VISIBLE_DEVICES=4,5,6,7 vllm serve /data/models/Qwen2-72B-Instruct-GPTQ-Int4 \
  --max-model-len 10000 \
  --tensor-parallel-size 4 \
  --gpu-memory-utilization 0.6 \
  --served-model-name Qwen2-72B-Chat-GPTQ-Int4
