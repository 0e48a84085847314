#!/bin/bash
# a vision model on Xinference's vLLM engine, with vLLM's multimodal limit written in CLI form
xinference launch --model-name Qwen2.5-VL-72B-Instruct-AWQ --model-type LLM --model-engine vLLM \
    --model-format awq --size-in-billions 72 --quantization INT4 --n-gpu auto --replica 1 --n-worker 1 \
    --gpu-idx 6 --limit-mm-per-prompt 5
