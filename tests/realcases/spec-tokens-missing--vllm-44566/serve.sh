#!/bin/bash
# target as the model, speculators-format EAGLE-3 draft through the speculative config
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --max-model-len 8192 \
  --speculative-config '{"method": "eagle3", "model": "RedHatAI/Llama-3.1-8B-Instruct-speculator.eagle3"}'
