#!/bin/sh
# OpenAI server from the v0.5.0.post1 image; the GPTQ checkpoint is mounted from ./models
docker run --gpus all --ipc=host -p 8000:8000 \
  -v "$(pwd)/models:/models" \
  vllm/vllm-openai:v0.5.0.post1 \
  --model /models/Qwen2-7B-Instruct-GPTQ-Int4 \
  --quantization gptq_marlin
