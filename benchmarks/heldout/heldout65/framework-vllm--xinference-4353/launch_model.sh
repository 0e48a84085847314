#!/bin/sh
# Xinference started with: xinference-local --host 0.0.0.0 --port 9997 --log-level DEBUG
xinference launch \
  --endpoint http://127.0.0.1:9997 \
  --model-engine vLLM \
  --model-name qwen2.5-instruct \
  --size-in-billions 72 \
  --model-format awq \
  --quantization Int4
# first chat request through the OpenAI-compatible endpoint
curl -s http://127.0.0.1:9997/v1/chat/completions \
  -H 'Content-Type: application/json' \
  -d '{"model": "qwen2.5-instruct", "messages": [{"role": "user", "content": "hello"}]}'
