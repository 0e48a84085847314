#!/bin/sh
# CLI form of the web-UI launch with two extra (custom) options
xinference launch \
  --endpoint http://127.0.0.1:9997 \
  --model-engine vllm \
  --model-name qwen3 \
  --model-format pytorch \
  --size-in-billions 8 \
  --n-gpu 2 \
  --tool-call-parser hermes \
  --chat-template /root/.xinference/templates/qwen3_tool.jinja
