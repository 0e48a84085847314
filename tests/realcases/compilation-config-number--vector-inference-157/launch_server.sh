#!/bin/bash
# the command the launcher writes from its model defaults
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --max-model-len 8192 \
  --gpu-memory-utilization 0.9 \
  --compilation-config 3 \
  --port 8080
