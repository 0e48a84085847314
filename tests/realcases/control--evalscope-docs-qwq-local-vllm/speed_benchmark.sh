#!/bin/bash
# EvalScope's speed benchmark of QwQ-32B-Preview through the vLLM server it starts itself
CUDA_VISIBLE_DEVICES=0,1 evalscope perf \
  --parallel 1 \
  --model Qwen/QwQ-32B-Preview \
  --max-tokens 2048 --min-tokens 2048 \
  --api local_vllm \
  --dataset speed_benchmark
