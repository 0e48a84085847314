#!/bin/sh
# 4-bit compressed-tensors Llama-3.2-1B on the second RTX 2080 Ti
CUDA_VISIBLE_DEVICES=1 python3 -m vllm.entrypoints.openai.api_server \
  --model ./models/Llama-3.2-1B-Instruct-spinquantR1R2-online \
  --max-model-len 8192 \
  --max-num-seqs=1 \
  --gpu-memory-utilization 0.80
