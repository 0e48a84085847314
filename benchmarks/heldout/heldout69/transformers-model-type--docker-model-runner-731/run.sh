#!/bin/sh
# Docker Model Runner with its vLLM backend (docker/model-runner:latest-vllm-cuda)
docker model run hf.co/Qwen/Qwen3.5-0.8B
