#!/bin/bash
python -m vllm.entrypoints.openai.api_server --port 10086 \
  --model TechxGenus/DeepSeek-Coder-V2-Lite-Instruct-AWQ \
  --dtype float16 --gpu-memory-utilization 0.8 --max-model-len 8192 \
  --enable-prefix-caching --disable-log-requests --trust-remote-code --enforce-eager
