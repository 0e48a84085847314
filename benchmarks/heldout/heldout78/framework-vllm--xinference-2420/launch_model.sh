#!/bin/sh
xinference launch \
  --endpoint http://127.0.0.1:9997 \
  --model-engine vllm \
  --model-name qwen2.5-instruct \
  --model-format pytorch \
  --size-in-billions 7 \
  --n-gpu 1
