#!/bin/sh
vllm serve zai-org/GLM-4.5V \
  --tensor-parallel-size 8 \
  --tool-call-parser glm45 \
  --reasoning-parser glm45 \
  --enable-auto-tool-choice \
  --served-model-name glm-4.5v
