#!/bin/sh
# GLM-4.5-Air in FP8 over eight GPUs with GLM's tool and reasoning parsers
vllm serve zai-org/GLM-4.5-Air-FP8 \
  --tensor-parallel-size 8 \
  --tool-call-parser glm45 \
  --reasoning-parser glm45 \
  --enable-auto-tool-choice
