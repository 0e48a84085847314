#!/usr/bin/env bash
# Chat endpoint behind the internal gateway.
set -euo pipefail

MODEL=${MODEL:-meta-llama/Llama-3.3-70B-Instruct}
PORT=${PORT:-8000}

export VLLM_ATTENTION_BACKEND=FLASH_ATTN

exec vllm serve "$MODEL" \
    --port "$PORT" \
    --tensor-parallel-size 8 \
    --gpu-memory-utilization 0.90 \
    --swap-space 8 \
    --no-enable-prefix-caching \
    --max-num-seqs 256 \
    --enforce-eager
