#!/bin/bash
# what `ramalama --runtime vllm serve hf://TinyLlama/TinyLlama-1.1B-Chat-v1.0` starts: the vLLM image of the day,
# with the sampling temperature ramalama passes to every runtime
podman run --rm --device nvidia.com/gpu=all -p 8080:8080 \
  docker.io/vllm/vllm-openai:v0.19.0 \
  --model TinyLlama/TinyLlama-1.1B-Chat-v1.0 --port 8080 --max-model-len 2048 --temperature 0.8
