#!/bin/bash
# Local coding backend: Qwen3-Coder-30B-A3B FP8 split by pipeline stages over a 16 GB and a 32 GB card,
# with more layers on the bigger card.
VLLM_PP_LAYER_PARTITION=16,32 CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=0,1 \
vllm serve ./Qwen/Qwen3-Coder-30B-A3B-Instruct-FP8 \
    --gpu-memory-utilization 0.9 \
    --served-model-name Qwen3-Coder-30B-A3B-Instruct-FP8 \
    --pipeline-parallel-size 2 \
    --enable-chunked-prefill \
    --enable-auto-tool-choice \
    --tool-call-parser qwen3_coder
