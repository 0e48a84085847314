#!/bin/bash
SHARED_GPU="${SHARED_GPU:-0}"
MODEL_NAME="Qwen/Qwen2.5-1.5B-Instruct"

env CUDA_VISIBLE_DEVICES="$SHARED_GPU" VLLM_ENABLE_SHARED_WEIGHTS=1 \
  python -m vllm.entrypoints.openai.api_server \
    --model "$MODEL_NAME" \
    --port 9001 \
    --gpu-memory-utilization 0.6 &

env CUDA_VISIBLE_DEVICES="$SHARED_GPU" python -m example_trainer.grpo \
  --model "$MODEL_NAME" \
  --weight-bridge-mode shared_vllm \
  --vllm-port 9001
