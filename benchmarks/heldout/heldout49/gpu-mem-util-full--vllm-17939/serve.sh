#!/bin/sh
# DeepSeek-R1 distill (Qwen 32B) on two GPUs, whole GPU memory requested, reasoning parser on
vllm serve --gpu-memory-utilization=1 --tensor-parallel-size=2 --max_model_len 16384 \
  --enable-reasoning --reasoning-parser deepseek_r1 \
  deepseek-ai/DeepSeek-R1-Distill-Qwen-32B
