#!/bin/bash
# Gemma 4 E2B with FlashInfer asked for by name
vllm serve google/gemma-4-E2B-it \
    --attention-backend FLASHINFER \
    --max-model-len 8192
