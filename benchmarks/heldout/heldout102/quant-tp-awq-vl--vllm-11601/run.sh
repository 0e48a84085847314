#!/usr/bin/env bash
docker run --rm --runtime nvidia --gpus all --ipc=host -p 8000:8000 \
  -v "$HOME/.cache/huggingface:/root/.cache/huggingface" \
  vllm/vllm-openai:v0.6.6 \
  --model OpenGVLab/InternVL2_5-78B-MPO-AWQ \
  --trust-remote-code \
  --tensor-parallel-size 2 \
  --max-model-len 8192
