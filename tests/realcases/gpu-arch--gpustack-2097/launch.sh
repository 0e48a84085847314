#!/bin/bash
# the command the GPUStack worker ran for the model instance
vllm serve /var/lib/gpustack/cache/huggingface/Qwen/Qwen2.5-7B-Instruct \
    --max-model-len 8192 --host 0.0.0.0 --port 40011 --served-model-name qwen2.5-7b-instruct
