#!/bin/bash
# Moonlight-16B-A3B (DeepSeek-V3 architecture: MLA) over two Turing cards, vLLM 0.7.3 (V0 engine)
python3 -m vllm.entrypoints.openai.api_server \
    --model ./models/Moonlight-16B-A3B-Instruct \
    --served-model-name vLLM/Moonlight-16B-A3B-Instruct \
    --tensor-parallel-size 2 \
    --dtype=half \
    --max-model-len 8192 \
    --max-num-seqs=3 \
    --gpu-memory-utilization 0.75 \
    --swap_space=0 \
    --no-enable-prefix-caching \
    --trust-remote-code
