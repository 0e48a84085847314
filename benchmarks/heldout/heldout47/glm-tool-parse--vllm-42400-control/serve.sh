#!/bin/bash
vllm serve /models/GLM-5.1-FP8 \
  --served-model-name glm-5.1 \
  --trust-remote-code \
  --tensor-parallel-size 8 \
  --max-model-len 202752 \
  --enable-auto-tool-choice \
  --tool-call-parser glm47 \
  --reasoning-parser glm45 \
  --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}'
