#!/bin/sh
# Nemotron Ultra over one node of eight GPUs, as the model card serves it
vllm serve nvidia/Llama-3_1-Nemotron-Ultra-253B-v1 \
  --tensor-parallel-size 8 \
  --trust-remote-code \
  --max-model-len 32768
