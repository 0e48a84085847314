#!/bin/bash
xinference-local --host 0.0.0.0 --port 9997 &
sleep 20
# the registry's prequantized spec: Xinference downloads the repo its llm_family.json names for Int4
xinference launch --model-engine vllm --model-name qwen2.5-instruct --size-in-billions 7 \
  --model-format gptq --quantization Int4
