#!/bin/bash
CUDA_VISIBLE_DEVICES=0,1 vllm serve /supconit-data/public_model/Qwen3-VL-4B-Instruct/ --tensor-parallel-size=2 \
  --trust-remote-code --max-model-len=4096 --dtype bfloat16 --gpu-memory-utilization 0.96 --port 8005 \
  --served-model-name Qwen32b --enable-lora --max-lora-rank 64
