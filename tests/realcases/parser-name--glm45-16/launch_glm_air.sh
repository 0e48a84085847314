#!/bin/bash
vllm serve zai-org/GLM-4.5-Air-FP8 \
  --tensor-parallel-size 4 \
  --enable-auto-tool-choice \
  --tool-call-parser glm45 \
  --max-model-len 65536 \
  --trust-remote-code \
  --gpu-memory-utilization 0.92
