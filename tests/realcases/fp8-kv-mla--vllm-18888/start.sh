#!/bin/bash
export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7
export VLLM_USE_V1=1
export VLLM_USE_MODELSCOPE=true
vllm serve /data/models/huggingface.co/deepseek-ai/DeepSeek-R1/DeepSeek-R1-Hzz1 \
    --served-model-name deepseek-r1 \
    --gpu-memory-utilization 0.8 \
    --tensor-parallel-size 8 \
    --trust-remote-code \
    --enable-chunked-prefill \
    --port 8000 \
    --kv-cache-dtype fp8 \
    --enable-expert-parallel
