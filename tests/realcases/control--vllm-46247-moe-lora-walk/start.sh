#!/usr/bin/env bash
# The same MoE + LoRA launch on a release whose expert-mapping lookup walks into the model.
vllm serve google/gemma-4-26B-A4B-it --enable-lora --max-lora-rank 16 --max-loras 2 \
  --lora-modules support=./adapters/support
