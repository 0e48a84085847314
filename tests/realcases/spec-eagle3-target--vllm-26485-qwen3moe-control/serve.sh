#!/bin/sh
vllm serve /home/models/Qwen3-30B-A3B-FP8 --enforce-eager \
  --speculative_config '{"method": "eagle3", "model": "/home/models/Qwen3-30B-A3B-eagle3", "num_speculative_tokens": 2}'
