#!/bin/bash
xinference-local -H 0.0.0.0 --port 9997 &
sleep 20
xinference launch --model-name qwen2.5-instruct --model-engine vLLM \
    --size-in-billions 14 --model-format gptq --quantization Int4
