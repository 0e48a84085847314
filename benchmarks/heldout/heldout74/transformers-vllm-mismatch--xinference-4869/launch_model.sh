#!/bin/sh
# CLI form of the web-UI launch: Qwen3.5 with the vLLM engine
xinference launch \
  --endpoint http://127.0.0.1:9998 \
  --model-engine vllm \
  --model-name qwen3.5 \
  --model-type LLM \
  --model-format pytorch \
  --size-in-billions 9 \
  --quantization none \
  --n-gpu 1
