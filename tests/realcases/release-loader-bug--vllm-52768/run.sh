#!/bin/bash
docker run --rm --network host --ipc host \
  --device /dev/kfd --device /dev/dri --group-add video \
  -e HF_HUB_OFFLINE=1 \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  vllm/vllm-openai-rocm:v0.27.1 \
  RedHatAI/gemma-4-31B-it-FP8-block \
  --enable-prompt-tokens-details \
  --max-model-len 32768 \
  --attention-backend ROCM_AITER_UNIFIED_ATTN \
  --gpu-memory-utilization 0.95 \
  --kv-cache-dtype fp8 \
  --language-model-only \
  --kv-cache-metrics \
  --max-num-batched-tokens 16384 \
  --max-num-seqs 128
