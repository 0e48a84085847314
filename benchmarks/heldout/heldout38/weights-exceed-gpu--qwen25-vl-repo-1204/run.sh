#!/bin/bash
docker run --runtime nvidia --gpus "device=0" --name vllm-qwen2.5-vl-7b \
    --restart always \
    -v /data/qwen2.5:/data/qwen2.5 \
    -v /data/vllm_cache:/root/.cache/vllm \
    -p 8110:8000 \
    -e CUDA_VISIBLE_DEVICES=0 \
    -d vllm/vllm-openai:v0.8.5.post1 \
    --model /data/qwen2.5/Qwen2.5-VL-7B-Instruct \
    --dtype float16 \
    --block-size 16 \
    --use-v2-block-manager \
    --gpu-memory-utilization 0.8 \
    --max-num-batched-tokens 8192 \
    --max-num-seqs 32
