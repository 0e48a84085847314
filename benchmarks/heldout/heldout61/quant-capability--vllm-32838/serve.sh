#!/bin/sh
vllm serve ./models/Qwen3-32B-NVFP4A16 \
  --tensor-parallel-size 2
