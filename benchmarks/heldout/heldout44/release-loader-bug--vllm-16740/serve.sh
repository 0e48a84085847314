#!/bin/bash
CUDA_VISIBLE_DEVICES=0,1 VLLM_USE_V1=0 vllm serve THUDM/GLM-4-32B-0414 \
  --port 8000 \
  --trust-remote-code \
  --max-model-len 32768 \
  --tensor-parallel-size 2 \
  --gpu_memory_utilization 0.8 \
  --served-model-name "glm4" \
  --enable-auto-tool-choice \
  --tool-call-parser pythonic \
  --trust-remote-code
