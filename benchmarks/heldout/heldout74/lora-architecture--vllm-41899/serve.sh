#!/bin/sh
VLLM_USE_V1=1 CUDA_VISIBLE_DEVICES=0 vllm serve ./Qwen3-Omni-30B-A3B-Instruct/ --port 8003 --host 0.0.0.0 \
  --enable-lora --max-lora-rank 32 --max-loras 2 \
  --lora-modules test_lora=./data/v2-20260416-101216/checkpoint-548/ \
  --dtype bfloat16 --uvicorn-log-level debug --gpu-memory-utilization 0.95 \
  --enable-auto-tool-choice --tool-call-parser hermes --trust_remote_code \
  --enable-log-requests --enable-log-outputs --max-model-len 30720 --enable-prefix-caching
