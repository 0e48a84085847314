#!/bin/bash
# aarch64 CPU host, CPU wheel of vLLM
VLLM_TARGET_DEVICE=cpu vllm serve Qwen/Qwen3-8B --dtype bfloat16
