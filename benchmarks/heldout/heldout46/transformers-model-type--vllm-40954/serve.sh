#!/bin/bash
# DeepSeek-V4-Flash across eight RTX 4090s with a 32k context
vllm serve deepseek-ai/DeepSeek-V4-Flash \
  --tensor-parallel-size 8 \
  --max-model-len 32768 \
  --trust-remote-code
