#!/bin/bash
docker run --gpus all --ipc=host -p 8000:8000 vllm/vllm-openai:v0.4.1 \
  --model lmsys/vicuna-7b-v1.5 --tensor-parallel-size 4 --dtype half
