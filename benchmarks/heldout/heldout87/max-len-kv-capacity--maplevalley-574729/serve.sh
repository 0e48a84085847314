#!/bin/sh
# 单卡 RTX 4090 (24 GB)，不限制上下文长度
vllm serve Qwen/Qwen3-VL-4B-Instruct \
  --host 0.0.0.0 --port 8000 \
  --trust-remote-code
