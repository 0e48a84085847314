#!/bin/sh
# dual batch overlap on two data-parallel ranks, DeepEP low-latency kernels for the expert all-to-all
vllm serve deepseek-ai/DeepSeek-V2-Lite --trust-remote-code \
  --data-parallel-size 2 --enable-expert-parallel \
  --enable-dbo --all2all-backend deepep_low_latency
