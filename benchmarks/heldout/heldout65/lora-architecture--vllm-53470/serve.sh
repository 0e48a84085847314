#!/bin/sh
vllm serve unsloth/gemma-4-26b-a4b-it \
  --enable-lora \
  --max-lora-rank 16 \
  --lora-modules myadapter=./adapters/myadapter
