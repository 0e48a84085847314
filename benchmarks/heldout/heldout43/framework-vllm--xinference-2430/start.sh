#!/bin/sh
. xinference/bin/activate
xinference-local --host 0.0.0.0 --port 8888 &
sleep 30
xinference launch \
    --endpoint http://127.0.0.1:8888 \
    --model-name qwen2.5-instruct \
    --model-type LLM \
    --model-engine vllm \
    --model-format pytorch \
    --size-in-billions 32 \
    --quantization none
