#!/bin/bash
# gpt-oss-120b on one H100-80GB: a shorter context, fewer sequences and a larger share of the GPU
MAX_LEN=$((85 * 1024))
vllm serve openai/gpt-oss-120b \
    --gpu-memory-utilization 0.97 \
    -O3 \
    --enable-chunked-prefill --enable-prefix-caching \
    --async-scheduling \
    --max_num_seqs 100 \
    --tool-call-parser openai --enable-auto-tool-choice \
    --tensor-parallel-size 1 --max-model-len $MAX_LEN
