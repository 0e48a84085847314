#!/bin/sh
# the command GPUStack's vLLM backend runs after placing the model on three GPUs
vllm serve google/gemma-3-27b-it \
  --host 0.0.0.0 \
  --port 40001 \
  --served-model-name gemma-3-27b-it \
  --tensor-parallel-size 3
