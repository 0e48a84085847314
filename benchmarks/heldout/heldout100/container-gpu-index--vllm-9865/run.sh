#!/bin/sh
docker run -d --runtime=nvidia \
  -e NVIDIA_VISIBLE_DEVICES=2,3 \
  -v /data/models/.cache:/data/models/.cache \
  --name DeepSeek-R1-Distill-Llama-70B \
  --env HF_HOME=/data/models/.cache \
  --env CUDA_VISIBLE_DEVICES=2,3 \
  -p 8020:8020 \
  --ipc=host \
  vllm/vllm-openai:v0.6.6.post1 \
  --model deepseek-ai/DeepSeek-R1-Distill-Llama-70B \
  --disable-log-stats \
  --gpu-memory-utilization=1 \
  --port 8020 \
  --max-model-len=70528 \
  --tensor-parallel-size 2
