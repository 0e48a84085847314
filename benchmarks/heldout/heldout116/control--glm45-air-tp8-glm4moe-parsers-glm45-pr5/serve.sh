#!/bin/bash
# The README command with the parser names that vLLM 0.10.0 knows (glm4_moe, not glm45).
vllm serve zai-org/GLM-4.5-Air \
    --tensor-parallel-size 8 \
    --tool-call-parser glm4_moe \
    --reasoning-parser glm4_moe \
    --enable-auto-tool-choice \
    --served-model-name glm-4.5-air
