#!/bin/bash
# what the GPUStack worker ran for the model instance
vllm serve /var/lib/gpustack/cache/huggingface/Salesforce/blip2-opt-2.7b \
    --max-model-len 8192 --host 0.0.0.0 --port 40055 --served-model-name blip2-opt-2.7b
