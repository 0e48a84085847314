#!/bin/bash
export VLLM_USE_MODELSCOPE=True
python -m vllm.entrypoints.openai.api_server \
  --model AI-ModelScope/Mixtral-8x22B-Instruct-v0.1 \
  --tensor-parallel-size 3 \
  --host 0.0.0.0 --port 8000
