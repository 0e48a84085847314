#!/bin/bash
vllm serve /docker_storage/models/MiniCPM-V-2_6 --dtype auto --max-model-len 2048 \
    --gpu_memory_utilization 1 --trust-remote-code
