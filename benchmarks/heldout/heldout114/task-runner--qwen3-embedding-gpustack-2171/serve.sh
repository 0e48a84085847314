#!/bin/bash
# What GPUStack's vLLM backend runs for the instance (no backend parameters given).
vllm serve /var/lib/gpustack/cache/huggingface/Qwen/Qwen3-Embedding-0.6B \
  --host 0.0.0.0 --port 40042 \
  --served-model-name qwen3-embedding-0.6b
