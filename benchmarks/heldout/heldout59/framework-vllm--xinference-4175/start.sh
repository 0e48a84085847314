#!/bin/sh
xinference-local --host 0.0.0.0 --port 9997 &
sleep 20
xinference launch \
  --endpoint http://127.0.0.1:9997 \
  --model-engine vllm \
  --model-name qwen2.5-instruct \
  --model-format pytorch \
  --size-in-billions 7 \
  --n-gpu 1
