#!/bin/bash
vllm serve nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-NVFP4 \
    --enable-prefix-caching \
    --mamba-cache-mode align \
    --enable-chunked-prefill \
    --speculative-config '{"method": "nemotron_h_mtp", "num_speculative_tokens": 5}' \
    --kv-cache-dtype fp8 \
    --dtype bfloat16 \
    --trust-remote-code \
    --gpu-memory-utilization 0.90 \
    --tensor-parallel-size 4
