#!/bin/sh
vllm serve gaunernst/gemma-3-27b-it-int4-awq -tp 2 --port 10004 --gpu-memory-utilization 0.68 \
  --swap-space 0.01 --served-model-name gemma-3-27b --dtype bfloat16
