#!/bin/bash
vllm serve /root/models/DeepSeek-V3.2 --tensor-parallel-size 8 --gpu-memory-utilization 0.9 \
    --max-model-len 512 --port 11434 --served-model-name DeepSeek-V3.2 --trust-remote-code --enable-expert-parallel
