#!/bin/sh
vllm serve murilonwt/Qwen3-VL-8B-Thinking-NVFP4 \
  --tensor-parallel-size 1 \
  --max-model-len 8192 \
  --gpu-memory-utilization 0.9 \
  --limit-mm-per-prompt '{"image": 1, "video": 1}'
