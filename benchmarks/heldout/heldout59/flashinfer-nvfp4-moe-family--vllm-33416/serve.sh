#!/bin/sh
export VLLM_USE_FLASHINFER_MOE_FP4=1
export VLLM_FLASHINFER_MOE_BACKEND=throughput
vllm serve ./models/MiniMax-M2.1-NVFP4 \
  --tensor-parallel-size 2 \
  --trust-remote-code \
  --max-model-len 65536
