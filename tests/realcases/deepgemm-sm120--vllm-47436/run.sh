#!/bin/sh
docker run --gpus all --ipc=host -p 8000:8000 vllm/vllm-openai:v0.24.0 \
  --model RedHatAI/gemma-4-31B-it-FP8-block --tensor-parallel-size 1 \
  --max-model-len 65536 --gpu-memory-utilization 0.95 --kv-cache-dtype fp8 \
  --async-scheduling --reasoning-parser gemma4 --enable-auto-tool-choice --tool-call-parser gemma4
