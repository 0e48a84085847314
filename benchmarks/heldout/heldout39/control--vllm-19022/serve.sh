#!/bin/bash
python -m vllm.entrypoints.openai.api_server \
  --model "meta-llama/Llama-3.1-8B-Instruct" \
  --tensor-parallel-size 2 \
  --host 0.0.0.0 \
  --port 8001
