#!/bin/bash
# HunyuanOCR as the model card's vLLM recipe starts it.
vllm serve tencent/HunyuanOCR \
    --no-enable-prefix-caching \
    --mm-processor-cache-gb 0
