#!/bin/bash
docker exec xinference xinference launch \
  --model-engine vLLM \
  --model-name qwen2-instruct \
  --size-in-billions 72 \
  --model-format pytorch \
  --quantization none \
  --n-gpu 8
