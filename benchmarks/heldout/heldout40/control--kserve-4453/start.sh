#!/bin/bash
# run inside the kserve/huggingfaceserver:latest-gpu container, model mounted at /mnt
python -m huggingfaceserver --backend vllm --tensor-parallel-size 4 --gpu-memory-utilization 0.9 \
    -max_model_len 8096 --model_dir ./models/qwen3-14b --model_name qwen3-14b --enable-chunked-prefill
