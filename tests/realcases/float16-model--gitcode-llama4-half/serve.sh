#!/bin/sh
vllm serve meta-llama/Llama-4-Scout-17B-16E-Instruct \
  --dtype half \
  --tensor-parallel-size 4 \
  --max-model-len 8192
