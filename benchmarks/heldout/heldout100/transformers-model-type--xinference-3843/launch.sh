#!/bin/sh
xinference-local --host 0.0.0.0 --port 9997 &
sleep 20
xinference launch --model-name ernie4.5 \
  --model-type LLM \
  --model-engine vllm \
  --model-format pytorch \
  --size-in-billions 21 \
  --quantization none \
  --n-gpu 1
