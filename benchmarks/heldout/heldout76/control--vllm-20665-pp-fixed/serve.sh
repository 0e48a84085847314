#!/bin/sh
vllm serve deepseek-ai/DeepSeek-V2-Lite \
  --trust-remote-code \
  --pipeline-parallel-size 2
