#!/bin/bash
docker run --name qwen25-vl \
    --runtime nvidia \
    --gpus '"device=0"' \
    -v /srv/hf-cache:/srv/hf-cache \
    -p 8082:8082 \
    vllm/vllm-openai:v0.7.1 \
    --model "Qwen/Qwen2.5-VL-7B-Instruct" \
    --port 8082 \
    --gpu_memory_utilization 0.9 \
    --max_model_len 6144 \
    --tensor_parallel_size 1 \
    --download-dir /srv/hf-cache
