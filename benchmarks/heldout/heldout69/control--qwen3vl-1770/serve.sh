#!/bin/bash
vllm serve Qwen/Qwen3-VL-30B-A3B-Thinking \
  --mm-encoder-tp-mode data \
  --async-scheduling \
  --media-io-kwargs '{"video": {"num_frames": -1}}' \
  --max-model-len 32000 \
  --tensor-parallel 4 \
  --limit-mm-per-prompt '{"image":5}' \
  --gpu-memory-utilization 0.98 \
  --allowed-local-media-path /video
