#!/bin/sh
# one RTX 3090, vLLM's image
docker run --rm --gpus '"device=0"' --ipc host -p 8000:8000 \
  -v /path/to/hf:/root/.cache/huggingface \
  vllm/vllm-openai:v0.19.1 \
  --model Intel/Qwen3.6-35B-A3B-int4-AutoRound \
  --tensor-parallel-size 1 \
  --max-model-len 32768 \
  --gpu-memory-utilization 0.92
