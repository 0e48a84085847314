#!/bin/sh
# /tmp/model/Qwen3-Coder-480B-A35B-Instruct-FP8 is a local copy of Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8
vllm serve /tmp/model/Qwen3-Coder-480B-A35B-Instruct-FP8 \
  --served-model-name Qwen3-Coder-480B-A35B-FP8 \
  -dp=8 \
  --enable-expert-parallel \
  --enable-auto-tool-choice \
  --tool-call-parser qwen3_coder
