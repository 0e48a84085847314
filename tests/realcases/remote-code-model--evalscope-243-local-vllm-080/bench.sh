#!/bin/sh
# EvalScope's speed benchmark on one GPU; local_vllm makes evalscope start the vLLM server itself
export CUDA_VISIBLE_DEVICES=0
evalscope perf --api local_vllm --model Qwen/Qwen-14B-Chat --dataset speed_benchmark \
  --rate 1 --parallel 10 --max-tokens 2048 --min-tokens 2048
