#!/bin/sh
docker run --runtime nvidia --gpus all \
  -v ~/nltk_data:/home/user/nltk_data \
  --env "HUGGING_FACE_HUB_TOKEN=${HF_TOKEN}" \
  -p 8514:8514 --ipc=host \
  --env "CUDA_VISIBLE_DEVICES=1" \
  --entrypoint python3 \
  vllm/vllm-openai:v0.5.0.post1 \
  -m vllm.entrypoints.openai.api_server \
  --model mlx-community/gemma-2-9b-it-8bit \
  --gpu-memory-utilization 0.96 \
  --port 8514 \
  --trust-remote-code \
  --tensor-parallel-size 1 \
  --use-v2-block-manager
