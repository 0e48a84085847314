#!/bin/bash
vllm serve Qwen/Qwen-Image-Edit-2509 --omni --port 8092 --max-num-seqs 10 \
    --served-model-name Qwen-Image-Edit-2509 --tensor-parallel-size 2
