#!/bin/bash
vllm serve stepfun-ai/Step3-VL-10B \
  --trust-remote-code \
  --gpu-memory-utilization 0.85 \
  --max-model-len 4096 \
  --limit-mm-per-prompt '{"image": 1}' \
  --dtype bfloat16
