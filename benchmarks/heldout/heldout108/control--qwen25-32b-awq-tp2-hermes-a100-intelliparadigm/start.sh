#!/bin/sh
nohup python -m vllm.entrypoints.openai.api_server \
  --host 0.0.0.0 \
  --port 3000 \
  --model /data/Qwen/Qwen2.5-32B-Instruct-AWQ \
  --tensor-parallel-size 2 \
  --served-model-name Qwen25-32B-Chat-AWQ-A100 \
  --quantization awq \
  --gpu-memory-utilization 0.9 \
  --trust-remote-code \
  --enable-auto-tool-choice \
  --tool-call-parser hermes \
  --disable-log-request \
  --enforce-eager \
  --max-model-len 20000 \
  >> /data/log/Qwen2.5-32B-Chat-AWQ.log 2>&1 &
