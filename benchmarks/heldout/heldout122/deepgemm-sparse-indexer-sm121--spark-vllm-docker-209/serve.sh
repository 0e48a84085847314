#!/bin/bash
# Two DGX Spark boxes (one GB10 each) joined in a Ray cluster; DeepSeek-V4-Flash split over both.
vllm serve deepseek-ai/DeepSeek-V4-Flash \
  --tensor-parallel-size 2 \
  --distributed-executor-backend ray \
  --trust-remote-code \
  --max-model-len 32768 \
  --host 0.0.0.0 --port 8000
