#!/bin/bash
# Multi-process mode CI job: deterministic (batch-invariant) serving, backend chosen through the
# environment variable the job had always used.
export VLLM_BATCH_INVARIANT=1
export VLLM_ATTENTION_BACKEND=FLASH_ATTN
vllm serve Qwen/Qwen3-14B --port 8000 --gpu-memory-utilization 0.8
