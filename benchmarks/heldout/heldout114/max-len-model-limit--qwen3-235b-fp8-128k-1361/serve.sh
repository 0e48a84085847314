#!/bin/bash
# four H20s, asking for the 128K context the model card advertises
vllm serve Qwen/Qwen3-235B-A22B-FP8 \
  --tensor-parallel-size 4 \
  --max-model-len 131072
