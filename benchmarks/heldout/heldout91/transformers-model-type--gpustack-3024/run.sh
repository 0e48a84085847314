#!/bin/sh
# the command GPUStack's built-in vLLM backend composes for the deployment
vllm serve Qwen/Qwen3-VL-8B-Instruct \
  --served-model-name qwen3-vl-8b-instruct \
  --host 0.0.0.0 --port 40000
