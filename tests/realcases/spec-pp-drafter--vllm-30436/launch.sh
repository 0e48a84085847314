#!/bin/sh
# two pipeline stages of two GPUs each, with prompt-lookup (n-gram) speculation
vllm serve Qwen/Qwen3-32B \
  --tensor-parallel-size 2 \
  --pipeline-parallel-size 2 \
  --max-model-len 16384 \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_min": 2, "prompt_lookup_max": 5}'
