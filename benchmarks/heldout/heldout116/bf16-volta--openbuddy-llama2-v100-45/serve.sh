#!/bin/bash
# Tesla V100-SXM2-32GB; the OpenBuddy checkpoint is published in bfloat16 and no --dtype is given.
python -m vllm.entrypoints.openai.api_server \
  --model OpenBuddy/openbuddy-llama2-13b-v11.1-bf16 \
  --host 0.0.0.0 --port 8000
