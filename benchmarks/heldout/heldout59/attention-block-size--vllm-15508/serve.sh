#!/bin/sh
vllm serve Qwen/Qwen2.5-7B-Instruct \
  --max-model-len 5120 \
  --block-size 8
