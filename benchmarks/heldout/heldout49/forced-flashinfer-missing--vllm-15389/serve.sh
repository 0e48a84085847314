#!/bin/sh
# Qwen2.5-7B with the attention backend forced to FlashInfer; the flashinfer package is not installed
export VLLM_ATTENTION_BACKEND=FLASHINFER
vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8196 --gpu-memory-utilization 0.95
