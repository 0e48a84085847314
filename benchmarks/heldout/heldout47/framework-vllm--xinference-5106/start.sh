#!/bin/bash
xinference-local -H 0.0.0.0 -p 9997 &
sleep 20
xinference launch \
  --model-engine vLLM \
  --model-name qwen3.5 \
  --size-in-billions 9 \
  --model-format pytorch \
  --n-gpu 2 \
  --tensor_parallel_size 2
