#!/bin/bash
python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen-14B-Chat-Int4 \
  --trust-remote-code --tensor-parallel-size 2 --port 8000
