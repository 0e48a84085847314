#!/bin/bash
vllm serve Qwen/Qwen2-VL-7B-Instruct --port 9325 --host 0.0.0.0 --dtype bfloat16 \
  --limit-mm-per-prompt image=1 --max-model-len 10000
