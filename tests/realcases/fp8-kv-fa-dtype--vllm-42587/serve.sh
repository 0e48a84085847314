#!/bin/bash
vllm serve Qwen/Qwen3-8B --kv-cache-dtype fp8_e5m2 --max-model-len 8192
