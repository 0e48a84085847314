#!/bin/sh
# the same eight A100 40GB cards; experts placed whole on each rank instead of split
vllm serve ./models/Qwen3-235B-A22B-GPTQ-Int4 \
  --tensor-parallel-size 8 \
  --enable-expert-parallel
