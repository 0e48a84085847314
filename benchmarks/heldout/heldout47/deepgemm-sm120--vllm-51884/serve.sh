#!/bin/bash
docker run --gpus all --ipc=host -p 8000:8000 \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  vllm/vllm-openai:v0.26.0 \
  --model RedHatAI/Muse-Glimmer-30B-FP8-block \
  --tensor-parallel-size 2
