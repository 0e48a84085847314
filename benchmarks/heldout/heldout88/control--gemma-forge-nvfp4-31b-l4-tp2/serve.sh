#!/bin/sh
CUDA_VISIBLE_DEVICES=0,1 vllm serve nvidia/Gemma-4-31B-IT-NVFP4 \
  --tensor-parallel-size 2 \
  --max-model-len 16384 \
  --port 8001
