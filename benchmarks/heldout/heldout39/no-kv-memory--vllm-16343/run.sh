#!/bin/bash
sudo docker run --runtime nvidia --gpus all \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  --env "HUGGING_FACE_HUB_TOKEN=${HF_TOKEN}" \
  -p 8003:8000 \
  --ipc=host \
  --name phi4 \
  vllm/vllm-openai:v0.8.3 \
  --model microsoft/phi-4 \
  --gpu_memory_utilization=0.80 \
  --max_model_len=4096
