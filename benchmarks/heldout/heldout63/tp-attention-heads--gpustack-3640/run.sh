#!/bin/sh
# the command GPUStack's vLLM backend composed after auto-placing the model on 7 GPUs
vllm serve ./models/DeepSeek-V3.2 \
  --tensor-parallel-size 7 \
  --served-model-name deepseek-v3.2 \
  --host 0.0.0.0 --port 40000
