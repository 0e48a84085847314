#!/bin/bash
# the 14B 1M-context Qwen2.5 at its full length, half precision, behind an API key
vllm serve Qwen/Qwen2.5-14B-Instruct-1M \
  --port 8001 \
  --api-key "$API_KEY" \
  --served-model-name model \
  --dtype half \
  --max-model-len 1010000 \
  --enforce-eager \
  --gpu-memory-utilization 0.8 \
  --max-num-batched-tokens 131072 \
  --max-num-seqs 32 \
  --enable-chunked-prefill
