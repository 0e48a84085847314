#!/bin/bash
# the folder that holds token_auth.py is on PYTHONPATH where the server starts
export PYTHONPATH="$(dirname "$0"):${PYTHONPATH}"
vllm serve "$MODEL_PATH" \
  --enable-prefix-caching \
  --max-num-batched-tokens 8192 \
  --gpu-memory-utilization 0.9 \
  --middleware token_auth.authentication \
  --enable-auto-tool-choice \
  --tool-call-parser llama4_json
