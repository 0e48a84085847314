#!/bin/sh
# an fp8 KV cache at the model's full 128K context on an Ampere card
vllm serve meta-llama/Meta-Llama-3.1-8B-Instruct \
  --kv-cache-dtype fp8
