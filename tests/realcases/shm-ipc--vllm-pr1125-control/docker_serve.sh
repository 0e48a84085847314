#!/bin/bash
docker run --runtime nvidia --gpus all --ipc=host -p 8000:8000 \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  vllm/vllm-openai:v0.4.1 --model meta-llama/Llama-2-13b-hf --tensor-parallel-size 4
