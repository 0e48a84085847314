#!/bin/sh
vllm serve GLM-4.7-Flash \
     --tensor-parallel-size 2 \
     --speculative-config.method mtp \
     --speculative-config.num_speculative_tokens 1 \
     --tool-call-parser glm47 \
     --reasoning-parser glm45 \
     --enable-auto-tool-choice \
     --served-model-name GLM-4.7-Flash \
     --port 8002 \
     --max-model-len 32768 \
     --gpu-memory-utilization 0.8
