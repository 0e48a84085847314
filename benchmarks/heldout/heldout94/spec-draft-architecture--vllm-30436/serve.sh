#!/bin/sh
vllm serve Qwen/Qwen3-32B \
  --pipeline-parallel-size 2 \
  --tensor-parallel-size 2 \
  --max-model-len 16384 \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4, "prompt_lookup_min": 2}'
