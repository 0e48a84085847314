#!/bin/bash
python3 -m vllm.entrypoints.openai.api_server \
  --model openai/gpt-oss-120b \
  --host 0.0.0.0 \
  --port 8000 \
  --tensor-parallel-size 2 \
  --gpu-memory-utilization 0.9
