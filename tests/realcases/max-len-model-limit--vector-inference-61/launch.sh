#!/bin/bash
# the server line the launcher builds for the model (its Qwen2.5 defaults)
vllm serve Qwen/Qwen2.5-Math-7B-Instruct \
    --tensor-parallel-size 1 --max-model-len 32768 --max-num-seqs 256 \
    --gpu-memory-utilization 0.9 --port 8080
