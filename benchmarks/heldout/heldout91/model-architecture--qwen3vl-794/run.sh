#!/bin/sh
vllm serve Qwen/Qwen2.5-VL-72B-Instruct \
  --tensor-parallel-size 4 \
  --max-model-len 32768 \
  --served-model-name qwen2.5-vl-72b
