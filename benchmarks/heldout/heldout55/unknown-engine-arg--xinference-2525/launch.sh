#!/bin/bash
# Xinference supervisor+worker on this host, models fetched from ModelScope
XINFERENCE_MODEL_SRC=modelscope xinference-local --host 0.0.0.0 --port 9997 &
sleep 30
# Qwen2.5-7B-Instruct on the vLLM engine; the extra engine option is spelled the way vLLM's CLI spells it
xinference launch \
    --model-engine vllm \
    --model-name qwen2.5-instruct \
    --size-in-billions 7 \
    --model-format pytorch \
    --quantization none \
    --gpu-memory-utilization 0.6
