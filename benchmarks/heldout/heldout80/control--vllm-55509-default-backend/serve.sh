#!/bin/sh
# arm A of the report: the default attention backend
vllm serve RedHatAI/Qwen3.8-27B-INT4 \
  --tensor-parallel-size 2 \
  --gpu-memory-utilization 0.90 \
  --max-model-len 100352 \
  --max-num-seqs 32 \
  --mamba-cache-mode align \
  --max-num-batched-tokens 3135
