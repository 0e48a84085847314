#!/bin/bash
xinference launch --model_path /models/Qwen2-VL-7B-Instruct --model-engine vllm -n qwen2-vl-instruct -f pytorch -s 7 \
    -u qwen2-vl-instruct_test --gpu-idx 2 --gpu_memory_utilization 0.9 -e http://127.0.0.1:9997
