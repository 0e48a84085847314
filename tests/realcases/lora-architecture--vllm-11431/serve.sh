#!/usr/bin/env bash
# Molmo 7B-D with one fine-tuned adapter, two GPUs
vllm serve allenai/Molmo-7B-D-0924 --trust-remote-code \
  --tensor-parallel-size 2 \
  --enable-lora --lora-modules molmo-ft=./adapters/molmo-ft
