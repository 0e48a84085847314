#!/bin/bash
# Gemma 4 E2B with its published "assistant" checkpoint as the speculative draft, one GPU
CUDA_VISIBLE_DEVICES=0 vllm serve google/gemma-4-E2B-it \
  --host 0.0.0.0 \
  --port 8002 \
  --tensor-parallel-size 1 \
  --max-model-len 8192 \
  --speculative-config '{"model": "google/gemma-4-E2B-it-assistant", "num_speculative_tokens": 4}'
