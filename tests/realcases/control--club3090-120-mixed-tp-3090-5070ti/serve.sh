#!/bin/bash
# Qwen3.6-27B (AutoRound int4) over an RTX 3090 and an RTX 5070 Ti (eGPUs) at tensor parallel 2, 200K context.
vllm serve ~/.cache/huggingface/qwen3.6-27b-autoround-int4 \
  --served-model-name qwen3.6-27b-autoround \
  --trust-remote-code \
  --dtype float16 \
  --quantization auto_round \
  --max-model-len 200000 \
  --tensor-parallel-size 2 \
  --disable-custom-all-reduce \
  --kv-cache-dtype fp8_e5m2 \
  --enable-prefix-caching \
  --max-num-batched-tokens 8192 \
  --max-num-seqs 2 \
  --enable-chunked-prefill \
  --enable-auto-tool-choice \
  --tool-call-parser qwen3_coder \
  --reasoning-parser qwen3 \
  --default-chat-template-kwargs '{"enable_thinking": true}' \
  --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}' \
  --host 0.0.0.0
