#!/bin/sh
# 指定 max_model_len 后可正常加载
xinference launch --model-engine vllm \
  --model-name deepseek-r1-distill-qwen \
  --size-in-billions 32 \
  --model-format pytorch \
  --quantization none \
  --max_model_len 18080
