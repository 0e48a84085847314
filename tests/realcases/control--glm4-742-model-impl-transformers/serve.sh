#!/bin/bash
vllm serve THUDM/GLM-4-32B-0414 \
  --tensor-parallel-size 2 \
  --max-model-len 32768 \
  --model-impl transformers
