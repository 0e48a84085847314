#!/bin/bash
# the image's server, then the model the report launched from the UI, as the CLI writes it
xinference-local -H 0.0.0.0 --port 9997 &
sleep 30
xinference launch --model-name qwen3 --model-type LLM --model-engine vllm \
  --model-format pytorch --size-in-billions 32 --n-gpu 2
