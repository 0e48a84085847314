#!/bin/sh
# eight A100 40GB cards, the whole MoE model split by tensor parallelism alone
vllm serve ./models/Qwen3-235B-A22B-GPTQ-Int4 \
  --tensor-parallel-size 8
