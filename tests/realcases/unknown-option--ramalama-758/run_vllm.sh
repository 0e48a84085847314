#!/bin/bash
# the container ramalama 0.18.0 starts for `ramalama --runtime vllm serve huggingface://google/translategemma-27b-it`
podman run --rm --device nvidia.com/gpu=all -p 8080:8080 \
  docker.io/vllm/vllm-openai:v0.19.0 \
  --model google/translategemma-27b-it --port 8080 --max-model-len 2048 --temperature 0.8
