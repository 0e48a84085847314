#!/bin/sh
vllm serve Qwen/Qwen3-30B-A3B-Thinking-2507 \
  --host 0.0.0.0 --port 8000 \
  --dtype bfloat16 \
  --max-model-len 32768 \
  --gpu-memory-utilization 0.9 \
  --served-model-name Qwen3-30B-A3B-Thinking-2507 \
  --enable-lora --max-loras 8 --max-lora-rank 32 \
  --trust-remote-code \
  --reasoning-parser qwen3 \
  --enable-auto-tool-choice --tool-call-parser hermes \
  --enable-chunked-prefill
