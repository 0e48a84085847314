#!/bin/bash
vllm serve /Qwen/Qwen3-32B-FP8 \
  --served-model-name Qwen3-32B-FP8 \
  --enable-reasoning \
  --reasoning-parser qwen3 \
  --enable-auto-tool-choice \
  --tool-call-parser hermes
