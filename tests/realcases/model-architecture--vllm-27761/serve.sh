#!/bin/bash
# DeepSeek-OCR downloaded into ./DeepSeek-OCR, served with its n-gram logits processor
vllm serve DeepSeek-OCR --tensor-parallel-size 1 --gpu-memory-utilization 0.95 \
    --logits_processors vllm.model_executor.models.deepseek_ocr:NGramPerReqLogitsProcessor
