#!/bin/sh
# head node of a two-node Ray cluster
vllm serve zai-org/GLM-5-FP8 \
  --tensor-parallel-size 8 --pipeline-parallel-size 2 \
  --distributed-executor-backend ray \
  --speculative-config '{"method": "mtp", "num_speculative_tokens": 5}'
