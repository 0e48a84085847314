#!/bin/bash
vllm serve nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-FP8 \
    --tensor-parallel-size 1 --kv-cache-dtype fp8 --trust-remote-code
