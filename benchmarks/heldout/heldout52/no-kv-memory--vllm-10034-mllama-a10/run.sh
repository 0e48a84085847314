#!/bin/sh
# Llama 3.2 11B Vision (local copy) served from the official image over two A10s.
docker run --runtime nvidia --gpus '"device=0,1"' -d \
  -v "$(pwd)/data/model/llama:/data/model/llama" \
  -p 8001:8000 \
  vllm/vllm-openai:v0.6.2 \
  --model /data/model/llama \
  --served_model_name Llama-3.2-11B-Vision-Instruct \
  --tensor-parallel-size 2 \
  --gpu_memory_utilization 0.7 \
  --max-model-len 1024
