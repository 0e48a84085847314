#!/bin/bash
# Two 8x H20 nodes in one Ray cluster; Kimi-K2-Instruct (FP8 checkpoint) over all 16 GPUs with a 32k context.
vllm serve moonshotai/Kimi-K2-Instruct \
  --tensor-parallel-size 16 \
  --distributed-executor-backend ray \
  --max-model-len 32768 \
  --trust-remote-code
