#!/bin/sh
# CLI form of the launch the reporter did from the web UI
xinference launch \
  --endpoint http://127.0.0.1:9997 \
  --model-engine vllm \
  --model-name qwen3-vl-instruct \
  --model-format pytorch \
  --size-in-billions 8 \
  --n-gpu 1
