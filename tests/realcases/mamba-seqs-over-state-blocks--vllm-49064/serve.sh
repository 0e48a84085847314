#!/bin/bash
# one H100 80GB; max_num_seqs left at the serve default
vllm serve Qwen/Qwen3.5-27B \
    --max-model-len 132000 \
    --gpu-memory-utilization 0.90
