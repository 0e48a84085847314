#!/bin/bash
# Tencent's own vLLM image for Hunyuan-A13B, started on a Blackwell machine
docker run --gpus all --ipc=host --net=host -v ~/.cache:/root/.cache \
  --entrypoint python hunyuaninfer/hunyuan-a13b:hunyuan-moe-A13B-vllm \
  -m vllm.entrypoints.openai.api_server \
  --model tencent/Hunyuan-A13B-Instruct --trust-remote-code --port 8000
