#!/bin/bash
# Qwen2.5-VL-7B-Instruct on the vLLM engine, spread over three of the host's GPUs (indices 1, 2 and 3)
xinference launch \
    --model-name qwen2.5-vl-instruct \
    --model-type LLM \
    --model-engine vLLM \
    --model-format pytorch \
    --size-in-billions 7 \
    --quantization none \
    --n-gpu 3 \
    --replica 1 \
    --n-worker 1 \
    --gpu-idx 1,2,3
