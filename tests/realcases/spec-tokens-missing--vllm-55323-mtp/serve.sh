#!/bin/bash
# the model's own MTP layers as the speculator, no draft and no token count given
vllm serve Qwen/Qwen3.6-35B-A3B \
  --tensor-parallel-size 2 \
  --max-model-len 32768 \
  --speculative-config '{"method": "mtp"}'
