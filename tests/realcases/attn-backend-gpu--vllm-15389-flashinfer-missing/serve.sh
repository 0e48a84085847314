#!/bin/bash
export VLLM_ATTENTION_BACKEND=FLASHINFER
vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8196 --gpu-memory-utilization 0.95
