#!/bin/bash
# Moonlight (DeepSeek-V3 architecture, MLA) split over two RTX 2080 Ti cards
python3 -m vllm.entrypoints.openai.api_server \
    --model ./models/Moonlight-16B-A3B-Instruct \
    --max-model-len 8192 \
    --max-num-seqs=3 \
    --dtype=half \
    --swap_space=0 \
    --gpu-memory-utilization 0.75 \
    --served-model-name vLLM/Moonlight-16B-A3B-Instruct \
    --tensor-parallel-size 2 \
    --no-enable-prefix-caching \
    --trust-remote-code
