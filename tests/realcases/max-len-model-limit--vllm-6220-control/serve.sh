#!/bin/bash
export CUDA_VISIBLE_DEVICES=0
export VLLM_ATTENTION_BACKEND=FLASHINFER
python -m vllm.entrypoints.openai.api_server --port=5000 --host=0.0.0.0 \
    --model google/gemma-2-27b-it --tensor-parallel-size=1 --seed 1234 \
    --gpu-memory-utilization=0.99 --max-num-batched-tokens=65536
