#!/bin/bash
# Llama 3.1 8B with an EAGLE draft and the KV-sharing fast prefill on
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --speculative-config '{"method": "eagle", "model": "yuhuili/EAGLE-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}' \
  -tp 1 \
  --kv-sharing-fast-prefill
