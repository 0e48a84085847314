#!/bin/sh
# xinference-local already running (pip install); CLI form of the web-UI launch of the built-in model
xinference launch \
  --endpoint http://127.0.0.1:9997 \
  --model-engine vllm \
  --model-name qwen2.5-vl-instruct \
  --model-format pytorch \
  --size-in-billions 7 \
  --n-gpu 1 \
  --max_model_len 32768
