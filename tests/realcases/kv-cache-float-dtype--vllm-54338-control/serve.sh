#!/bin/sh
vllm serve Qwen/Qwen2.5-0.5B-Instruct --kv-cache-dtype float16 --max-model-len 8192
