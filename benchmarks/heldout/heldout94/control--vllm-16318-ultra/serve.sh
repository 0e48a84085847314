#!/bin/sh
vllm serve nvidia/Llama-3_1-Nemotron-Ultra-253B-v1 \
  --trust-remote-code \
  --tensor-parallel-size 8 \
  --max-model-len 32768
