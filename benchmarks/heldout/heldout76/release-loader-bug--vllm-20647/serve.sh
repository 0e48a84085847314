#!/bin/sh
# DeepSeek-V2-Lite split over two GPUs by pipeline stages
vllm serve deepseek-ai/DeepSeek-V2-Lite \
  --trust-remote-code \
  --pipeline-parallel-size 2
