#!/bin/sh
# CPU-only server; the same command served QwQ-32B-AWQ before
export VLLM_CPU_KVCACHE_SPACE=40
vllm serve cognitivecomputations/DeepSeek-R1-AWQ \
  --trust-remote-code \
  --max-model-len 8192
