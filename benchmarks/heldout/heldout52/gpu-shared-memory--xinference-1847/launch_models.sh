#!/bin/bash
# The knowledge-base setup: the m3e-base embedding model first, then the chat model on the vLLM engine.
xinference launch -e http://127.0.0.1:9997 --model-name m3e-base --model-type embedding
xinference launch -e http://127.0.0.1:9997 \
    --model-name qwen1.5-chat \
    --model-engine vllm \
    --model-format gptq \
    --size-in-billions 14 \
    --quantization Int4
