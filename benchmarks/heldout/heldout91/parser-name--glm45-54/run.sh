#!/bin/sh
vllm serve zai-org/GLM-4.5-Air-FP8 \
  --tensor-parallel-size 2 \
  --tool-call-parser glm45 \
  --reasoning-parser glm45 \
  --enable-auto-tool-choice \
  --served-model-name GLM-4.5-Air-FP8
