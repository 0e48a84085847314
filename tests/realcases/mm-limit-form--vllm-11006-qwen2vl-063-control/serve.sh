#!/bin/sh
python -m vllm.entrypoints.openai.api_server \
  --model /root/autodl-tmp/Qwen/Qwen2-VL-72B-Instruct/ \
  --trust-remote-code \
  --tensor-parallel-size 8 \
  --max-model-len 20480 \
  --port 6006
