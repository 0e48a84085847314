#!/usr/bin/env bash
# Gemma 4 26B-A4B (MoE, 128 experts) on eight GPUs with one LoRA adapter of rank 128.
vllm serve google/gemma-4-26B-A4B-it \
  --tensor_parallel_size 8 \
  --enable-lora \
  --max_lora_rank 128 \
  --lora-modules '{"name": "model", "path": "/adapters/gemma4-moe"}'
