#!/bin/bash
# One A100 running the released vLLM 0.7.3 wheel; the checkpoint's config.json has no
# top-level "architectures" key, and no --hf-overrides is passed.
vllm serve deepseek-ai/deepseek-vl2 \
  --max-model-len 4096 \
  --gpu-memory-utilization 0.9
