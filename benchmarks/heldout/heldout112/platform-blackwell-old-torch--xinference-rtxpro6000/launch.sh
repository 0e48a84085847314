#!/bin/bash
docker run -d --gpus all -p 9997:9997 --name xinference xprobe/xinference:v1.7.1.post1 \
  xinference-local -H 0.0.0.0
docker exec xinference xinference launch --model-engine vllm \
  --model-name qwen2.5-instruct --size-in-billions 32 --model-format pytorch
