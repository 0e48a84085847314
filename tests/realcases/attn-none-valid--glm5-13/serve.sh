#!/bin/bash
# GLM-5-FP8 on one node of Ampere cards
vllm serve zai-org/GLM-5-FP8 \
    --tensor-parallel-size 8 \
    --max-model-len 32768 \
    --tool-call-parser glm47 \
    --reasoning-parser glm45 \
    --enable-auto-tool-choice
