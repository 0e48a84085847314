#!/bin/sh
# The README's launch for GLM-4.5-Air-FP8, run in the reporter's ROCm vLLM container.
vllm serve zai-org/GLM-4.5-Air-FP8 \
    --tensor-parallel-size 8 \
    --tool-call-parser glm45 \
    --reasoning-parser glm45 \
    --enable-auto-tool-choice \
    --served-model-name glm45air
