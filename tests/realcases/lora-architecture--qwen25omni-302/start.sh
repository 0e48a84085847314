#!/usr/bin/env bash
# Thinker of Qwen2.5-Omni with a function-calling adapter, V0 engine, two GPUs.
export VLLM_USE_V1=0
vllm serve Qwen/Qwen2.5-Omni-7B --port 8009 --host 127.0.0.1 --dtype bfloat16 -tp 2 \
  --enable-lora --lora-modules fnc_call=./adapters/fnc_call
