#!/bin/sh
exec vllm serve Qwen/Qwen3-8B --tensor-parallel-size 4 \
  --speculative-config '{"method": "eagle3", "model": "AngelSlim/Qwen3-8B_eagle3", "num_speculative_tokens": 3}'
