#!/bin/bash
# Kimi-Dev-72B served without a reasoning parser.
vllm serve moonshotai/Kimi-Dev-72B \
  --served-model-name kimi-dev \
  --tensor-parallel-size 8 \
  --gpu-memory-utilization 0.95
