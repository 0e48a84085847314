#!/bin/sh
xinference launch \
    --endpoint http://127.0.0.1:9997 \
    --model-name qwen2.5-instruct \
    --model-type LLM \
    --model-engine vLLM \
    --model-format pytorch \
    --size-in-billions 7 \
    --quantization none \
    --n-gpu 1
