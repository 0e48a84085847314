#!/bin/sh
vllm serve ../models/qwen25_32b_instruct_HF/ \
  --tensor-parallel-size 2 \
  --max-model-len 10000
