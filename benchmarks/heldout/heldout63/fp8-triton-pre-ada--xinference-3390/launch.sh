#!/bin/sh
xinference-local --host 0.0.0.0 --port 9997 &
sleep 20
xinference launch --model-name qwen3 --model-type LLM --model-engine vLLM \
  --model-format fp8 --size-in-billions 30 --quantization fp8 \
  --n-gpu auto --replica 1 --n-worker 1 --gpu-idx 0 \
  --download-hub modelscope --reasoning-content false
