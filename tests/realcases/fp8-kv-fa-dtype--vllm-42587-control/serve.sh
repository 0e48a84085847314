#!/bin/bash
vllm serve Qwen/Qwen3-8B --kv-cache-dtype fp8 --max-model-len 8192
