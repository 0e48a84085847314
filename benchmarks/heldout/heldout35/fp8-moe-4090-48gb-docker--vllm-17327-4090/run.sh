#!/bin/sh
docker run --runtime nvidia --gpus all \
  -d \
  -v /root/models:/models \
  -p 5536:8000 \
  --env "HF_HUB_OFFLINE=1" \
  --ipc=host \
  vllm/vllm-openai:v0.8.5 \
  --model /models/Qwen/Qwen3-235B-A22B-FP8 \
  --tokenizer /models/Qwen/Qwen3-235B-A22B-FP8 \
  --generation-config /models/Qwen/Qwen3-235B-A22B-FP8 \
  --served_model_name Qwen3-235B-A22B-FP8 \
  --gpu_memory_utilization 0.9 \
  --enable-reasoning --reasoning-parser deepseek_r1 \
  --enable-auto-tool-choice --tool-call-parser hermes \
  --host 0.0.0.0 \
  --port 8000 \
  --enable-expert-parallel \
  --tensor-parallel-size 8
