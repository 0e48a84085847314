#!/bin/bash
VLLM_ATTENTION_BACKEND=FLASHINFER python3 -m vllm.entrypoints.openai.api_server \
  --host 0.0.0.0 --port 8124 --dtype "auto" --model google/gemma-2-9b-it -tp 1 \
  --gpu-memory-utilization 0.85 --max-model-len 4096 --disable-sliding-window
