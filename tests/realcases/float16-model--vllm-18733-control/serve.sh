#!/bin/bash
CUDA_VISIBLE_DEVICES=6 vllm serve /home/user/models/gemma-3-4b-it \
    --host 0.0.0.0 --port 8088 \
    --dtype float16 \
    --served-model-name gemma-3-4b-it \
    --tensor-parallel-size 1 \
    --gpu-memory-utilization 0.9 \
    --tokenizer /home/user/models/gemma-3-4b-it \
    --max-model-len 2500 \
    --generation-config vllm
