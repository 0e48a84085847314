#!/bin/sh
# the command GPUStack composes for the catalog deployment on the custom vLLM 0.13.0 backend
vllm serve /var/lib/gpustack/cache/huggingface/Qwen/Qwen3-Embedding-8B \
  --task=embed \
  --served-model-name qwen3-embedding-8b \
  --host 0.0.0.0 --port 40000
