#!/bin/sh
# run on the head node of a two-node Ray cluster (2 x 8 H20)
vllm serve ./models/DeepSeek-R1/ \
    --host 0.0.0.0 \
    --port 8081 \
    --tensor-parallel-size 8 \
    --pipeline-parallel-size 2 \
    --gpu-memory-utilization 0.8 \
    --max-num-seqs 16 \
    --max-model-len 32768 \
    --served-model-name deepseek_r1 \
    --device cuda \
    --quantization fp8 \
    --trust-remote-code \
    --num-speculative-tokens 1
