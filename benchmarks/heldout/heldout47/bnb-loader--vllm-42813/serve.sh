#!/bin/bash
MODEL_ID="vody-am/gemma-4-31B-it-bnb-nf4"
vllm serve $MODEL_ID \
  --quantization bitsandbytes \
  --gpu-memory-utilization 0.5 \
  --max-model-len 4096 \
  --max-num-seqs 1 \
  --tensor-parallel-size 1 \
  --enable-prefix-caching \
  --attention-backend TRITON_ATTN \
  --default-chat-template-kwargs '{"enable_thinking": false}'
