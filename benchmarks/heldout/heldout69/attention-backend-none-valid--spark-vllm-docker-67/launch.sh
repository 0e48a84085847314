#!/bin/bash
# head node of a 4 x DGX Spark Ray cluster started with ./launch-cluster.sh -d start
export VLLM_NVFP4_GEMM_BACKEND=marlin
export VLLM_TEST_FORCE_FP8_MARLIN=1
export VLLM_MARLIN_USE_ATOMIC_ADD=1

vllm serve lukealonso/GLM-5-NVFP4 \
  --served-model-name "lukealonso/GLM-5-NVFP4" \
  --trust-remote-code \
  --tensor-parallel-size 4 \
  --distributed-executor-backend ray \
  --gpu-memory-utilization 0.90 \
  --max-model-len auto \
  --enable-auto-tool-choice \
  --tool-call-parser glm47 \
  --reasoning-parser glm45 \
  --host 0.0.0.0 \
  --port 8000
