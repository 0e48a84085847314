#!/bin/bash
# n-gram speculative decoding for a small chat model on one GPU
CUDA_VISIBLE_DEVICES=1 python -m vllm.entrypoints.openai.api_server \
  --model /home/Qwen1.5-1.8B-Chat \
  --gpu-memory-utilization 0.5 \
  --enable-prefix-caching \
  --speculative-model "[ngram]" \
  --num-speculative-tokens 8 \
  --use-v2-block-manager \
  --ngram-prompt-lookup-max 8 \
  --ngram-prompt-lookup-min 2
