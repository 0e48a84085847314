#!/bin/sh
xinference-local --host 0.0.0.0 --port 9997 &
sleep 20
xinference launch --endpoint http://127.0.0.1:9997 \
  --model-engine vllm \
  --model-name qwen2.5-vl-instruct \
  --size-in-billions 72 \
  --model-format pytorch \
  --n-gpu 4
