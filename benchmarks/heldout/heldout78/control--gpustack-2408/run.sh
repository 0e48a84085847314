#!/bin/sh
# the command GPUStack's built-in vLLM backend composes for the deployment
vllm serve /var/lib/gpustack/cache/huggingface/Qwen/Qwen3-Reranker-0.6B \
  --served-model-name Qwen3-Reranker-0.6B \
  --host 0.0.0.0 --port 40000
