#!/bin/sh
vllm serve google/gemma-4-E4B-it \
  --max-model-len 8192 \
  --enable-lora \
  --max-lora-rank 16 \
  --lora-modules my-adapter=./adapters/gemma4-e4b-lora
