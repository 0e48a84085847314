#!/bin/sh
# Qwen3-30B-A3B with an EAGLE-3 head trained with SpecForge (local folder)
vllm serve Qwen/Qwen3-30B-A3B \
  --max-model-len 32768 \
  --speculative-config '{"method": "eagle3", "model": "./models/qwen3-30b-a3b-eagle3", "num_speculative_tokens": 3}'
