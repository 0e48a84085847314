#!/bin/sh
# Phi-3 mini with the 128k context, one GPU, server on port 5001
docker run -d --runtime=nvidia --gpus '"device=1"' --shm-size=10.24gb \
  -p 5001:5001 -e NCCL_IGNORE_DISABLED_P2P=1 \
  -e HUGGING_FACE_HUB_TOKEN=$HUGGING_FACE_HUB_TOKEN \
  -v "${HOME}"/.cache:$HOME/.cache/ --network host \
  vllm/vllm-openai:v0.4.0.post1 \
  --port=5001 --host=0.0.0.0 \
  --model=microsoft/Phi-3-mini-128k-instruct \
  --seed 1234 --trust-remote-code --tensor-parallel-size=1 \
  --max-num-batched-tokens=131072 --max-log-len=100 \
  --download-dir=$HOME/.cache/huggingface/hub
