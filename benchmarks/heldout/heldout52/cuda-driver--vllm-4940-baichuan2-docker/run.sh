#!/bin/sh
# OpenAI server for a local Baichuan2-13B-Chat copy, split over the box's two GPUs.
docker run --runtime nvidia --gpus all \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  -v "$(pwd)/models/Baichuan2-13B-Chat:/Baichuan2-13B-Chat" \
  --env "HUGGING_FACE_HUB_TOKEN=<secret>" \
  -p 5000:5000 \
  --ipc=host \
  vllm/vllm-openai:v0.4.2 \
  --model /Baichuan2-13B-Chat \
  --trust-remote-code \
  --tensor-parallel-size 2
