#!/bin/sh
# launched against the running xinference container (same as the web UI form the reporter filled in)
xinference launch \
    --endpoint http://127.0.0.1:9997 \
    --model-name qwen2.5-instruct \
    --model-type LLM \
    --model-engine vLLM \
    --model-format gptq \
    --size-in-billions 32 \
    --quantization Int8 \
    --gpu-idx 1,2 \
    --download_hub modelscope
