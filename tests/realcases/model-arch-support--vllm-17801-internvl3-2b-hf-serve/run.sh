#!/usr/bin/env bash
# InternVL3 in the transformers layout, two images per prompt
vllm serve OpenGVLab/InternVL3-2B-hf \
  --max-model-len 8192 \
  --limit-mm-per-prompt image=2
