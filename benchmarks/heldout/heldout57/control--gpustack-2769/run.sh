#!/bin/sh
# the command GPUStack's built-in vLLM backend composes for the deployment
vllm serve Qwen/Qwen2.5-VL-3B-Instruct \
  --served-model-name qwen2.5-vl-3b-instruct \
  --host 0.0.0.0 --port 40000
