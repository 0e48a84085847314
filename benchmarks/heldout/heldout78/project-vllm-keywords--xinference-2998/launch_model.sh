#!/bin/sh
# CLI form of the web-UI launch with one extra (custom) option
xinference launch \
  --endpoint http://127.0.0.1:9997 \
  --model-engine vllm \
  --model-name deepseek-r1-distill-qwen \
  --model-format pytorch \
  --size-in-billions 14 \
  --n-gpu 2 \
  --enable_prefix_cache True
