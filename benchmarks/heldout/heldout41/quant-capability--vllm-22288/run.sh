#!/bin/bash
docker run --gpus all --ipc=host -p 8000:8000 \
  vllm/vllm-openai:gptoss \
  --model openai/gpt-oss-120b
