#!/bin/bash
# DGX Spark (GB10) container with batch-invariant (deterministic) inference switched on.
docker run -d --name vllm --gpus all --ipc=host -p 8000:8000 \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  -e VLLM_BATCH_INVARIANT=1 \
  vllm/vllm-openai:v0.14.0 \
  Qwen/Qwen3-8B \
  --gpu-memory-utilization 0.7 \
  --max-model-len 32768
