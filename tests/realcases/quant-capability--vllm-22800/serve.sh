#!/bin/bash
vllm serve /data/AI/model/chat/cpatonn-mirror/Qwen3-30B-A3B-Instruct-2507-AWQ \
  --served-model-name Qwen3-30B-A3B-Instruct-2507 \
  --quantization compressed-tensors \
  --dtype float16 \
  --max-model-len 4096 \
  --gpu-memory-utilization 0.95 \
  --trust-remote-code \
  --host 0.0.0.0 --port 5910
