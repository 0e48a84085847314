#!/bin/sh
# image inference on eight 80 GB cards (no video per prompt)
vllm serve Qwen/Qwen3-VL-235B-A22B-Instruct \
  --tensor-parallel-size 8 \
  --limit-mm-per-prompt.video 0 \
  --mm-encoder-tp-mode data \
  --mm-processor-cache-type shm \
  --async-scheduling \
  --gpu-memory-utilization 0.95
