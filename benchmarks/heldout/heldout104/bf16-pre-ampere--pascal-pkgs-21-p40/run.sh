#!/usr/bin/env bash
# Pascal build of vLLM 0.8.1 on one Tesla P40
docker run --rm --gpus all -p 8000:8000 --ipc=host \
  -v "$HOME/.cache/huggingface:/root/.cache/huggingface" \
  ghcr.io/sasha0552/vllm:v0.8.1 \
  --model reducto/RolmOCR
