#!/bin/bash
docker run --gpus all --ipc=host -p 8000:8000 \
  -v /models:/models \
  vllm/vllm-openai:v0.26.0-aarch64-ubuntu2404 \
  --model Qwen/Qwen3.5-122B-A10B-FP8 \
  --speculative-config '{"method":"dflash","model":"/models/dflash-draft","num_speculative_tokens":16}'
