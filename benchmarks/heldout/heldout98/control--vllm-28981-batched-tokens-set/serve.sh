#!/bin/bash
VLLM_TARGET_DEVICE=cpu vllm serve Qwen/Qwen3-8B --dtype bfloat16 --max-num-batched-tokens 40960
