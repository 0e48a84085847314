#!/bin/sh
# arm B of the report: the same launch as the default-backend arm, with FlashInfer forced
vllm serve RedHatAI/Qwen3.8-27B-INT4 \
  --tensor-parallel-size 2 \
  --gpu-memory-utilization 0.90 \
  --max-model-len 100352 \
  --max-num-seqs 32 \
  --mamba-cache-mode align \
  --max-num-batched-tokens 3135 \
  --attention-backend FLASHINFER
