#!/usr/bin/env bash
# Serve a vision-language model with one image and one video per request.
vllm serve Qwen/Qwen2.5-VL-7B-Instruct \
  --max-model-len 32768 \
  --limit-mm-per-prompt image=1,video=1
