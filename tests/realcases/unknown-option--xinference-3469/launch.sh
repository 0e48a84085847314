#!/bin/bash
# a Qwen3 AWQ launch on Xinference's vLLM engine over two GPUs, with thinking switched on in the
# hyphen form the web UI shows for its own keyword
xinference launch --model-name qwen3 --model-type LLM --model-engine vLLM --model-format awq \
    --size-in-billions 32 --quantization Int4 --n-gpu 2 --replica 1 --n-worker 1 \
    --max_model_len 2048 --enable-thinking true
