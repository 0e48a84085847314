#!/bin/bash
# the nightly wheel of the end of August 2025, forced over an older install
uv pip install -U vllm --torch-backend=auto --extra-index-url https://wheels.vllm.ai/nightly --force-reinstall
vllm serve openbmb/MiniCPM-V-4_5 --trust-remote-code \
    --gpu-memory-utilization 0.95 --max-model-len 16000 --max-num-seqs 1
