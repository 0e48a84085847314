#!/bin/sh
vllm serve google/gemma-4-26B-A4B \
  --port 10000 \
  --max-model-len 131072 \
  --enforce-eager \
  --enable-chunked-prefill \
  --enable-auto-tool-choice \
  --reasoning-parser gemma4 \
  --tool-call-parser gemma4 \
  --chat-template /home/vllm/examples/tool_chat_template_gemma4.jinja \
  --gpu-memory-utilization 0.9
