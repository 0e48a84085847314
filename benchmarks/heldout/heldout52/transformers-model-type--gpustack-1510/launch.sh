#!/bin/bash
# What GPUStack's vLLM backend runs for a Hugging Face model deployed from the catalog with default settings
vllm serve /var/lib/gpustack/cache/huggingface/unsloth/gemma-3-12b-it-bnb-4bit \
    --host 0.0.0.0 --port 40050 \
    --served-model-name gemma-3-12b-it-bnb-4bit
