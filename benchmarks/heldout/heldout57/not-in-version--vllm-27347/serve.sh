#!/bin/sh
vllm serve Qwen/Qwen3-30B-A3B \
  --data-parallel-size 8 \
  --enable-expert-parallel \
  --all2all-backend deepep_low_latency
