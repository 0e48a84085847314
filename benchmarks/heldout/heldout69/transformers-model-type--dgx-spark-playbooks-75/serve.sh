#!/bin/bash
# head node, inside nvcr.io/nvidia/vllm:25.11-py3 started by run_cluster.sh (2 nodes, 1 GB10 each)
vllm serve google/gemma-4-31B-it \
  --host 0.0.0.0 \
  --port 8000 \
  --served-model-name gemma4-31b \
  --tensor-parallel-size 2 \
  --pipeline-parallel-size 1 \
  --max-model-len 131072 \
  --gpu-memory-utilization 0.90 \
  --max-num-seqs 1 \
  --max-num-batched-tokens 2048 \
  --enable-prefix-caching \
  --generation-config vllm \
  --dtype auto
