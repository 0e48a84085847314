#!/bin/sh
# the command GPUStack's vLLM backend composes for the qwen3.5-35b-a3b deployment
vllm serve Qwen/Qwen3.5-35B-A3B \
  --max-model-len 8192 \
  --tensor-parallel-size 2 \
  --speculative-config '{"method": "qwen3_5_mtp", "num_speculative_tokens": 1}' \
  --served-model-name qwen3.5-35b-a3b \
  --host 0.0.0.0 --port 40000
