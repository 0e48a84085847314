#!/bin/bash
vllm serve zai-org/GLM-5.1-FP8 \
    --tensor-parallel-size 8 \
    --max-model-len 16384
