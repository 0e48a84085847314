#!/bin/bash
vllm serve zai-org/GLM-4.5-Air \
  --tensor-parallel-size 4 \
  --enable-auto-tool-choice \
  --tool-call-parser hermes
