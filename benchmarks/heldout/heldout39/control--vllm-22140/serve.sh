#!/bin/bash
CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=0,1,2 vllm serve zai-org/GLM-4.5-Air-FP8 \
  --gpu-memory-utilization 0.94 --port 8001 --served-model-name GLM-4.5-Air \
  --kv-cache-dtype fp8 --pipeline-parallel-size 3 --tensor-parallel-size 1
