#!/bin/sh
# the command GPUStack composes in its runner image quay.io/gpustack/runner:cuda12.8-vllm0.13.0
vllm serve ./models/Qwen3-VL-Embedding-8B \
  --max-model-len 8192 \
  --host 0.0.0.0 --port 40012 \
  --served-model-name qwen3-vl-embedding-8b
