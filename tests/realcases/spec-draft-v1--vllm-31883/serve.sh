#!/bin/sh
vllm serve Qwen/Qwen3-4B --dtype bfloat16 --tensor-parallel-size 1 --host 0.0.0.0 --port 8199 \
  --speculative_config '{"model": "Qwen/Qwen3-0.6B", "num_speculative_tokens": 5}'
