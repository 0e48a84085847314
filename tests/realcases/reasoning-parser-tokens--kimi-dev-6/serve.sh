#!/bin/bash
# Kimi-Dev-72B behind an OpenAI-compatible endpoint, with a reasoning parser so that
# the model's thinking comes back as reasoning_content.
vllm serve moonshotai/Kimi-Dev-72B \
  --served-model-name kimi-dev \
  --tensor-parallel-size 8 \
  --gpu-memory-utilization 0.95 \
  --reasoning-parser deepseek_r1
