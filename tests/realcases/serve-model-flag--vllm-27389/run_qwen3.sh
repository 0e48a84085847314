#!/bin/bash
export CUDA_VISIBLE_DEVICES=0,1
docker run --gpus all --ipc=host -p 8000:8000 -v /root/models:/root/models \
  vllm/vllm-openai:v0.11.0 \
  serve /root/models/Qwen3-8B --tensor-parallel-size 2 --max-model-len 16000 --gpu-memory-utilization 0.9
