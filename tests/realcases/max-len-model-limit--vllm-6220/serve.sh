#!/bin/bash
export CUDA_VISIBLE_DEVICES=0
python -m vllm.entrypoints.openai.api_server --port=5000 --host=0.0.0.0 \
    --model google/gemma-2-27b-it --tensor-parallel-size=1 --seed 1234 \
    --gpu-memory-utilization=0.99 --max-model-len 8192 --max-num-batched-tokens=65536
