#!/bin/bash
docker run -d --name xinference --gpus all -p 9997:9997 \
    -v /data/models:/data/models \
    xprobe/xinference:v1.2.1 xinference-local -H 0.0.0.0

docker exec xinference xinference launch --model-engine vllm \
    --model-name deepseek-r1-distill-qwen --size-in-billions 32 --model-format pytorch \
    --model-path /data/models/DeepSeek-R1-Distill-Qwen-32B \
    --n-gpu 4 --max_model_len 4096 --dtype half
