#!/bin/bash
docker run -it --name qwen25-vl-7b \
  --gpus all \
  -e TZ=Asia/Shanghai \
  -v /data/models/:/root/model \
  -p 8444:8000 \
  --ipc=host \
  vllm/vllm-openai:v0.7.2 \
  --model /root/model/Qwen2.5-VL-7B-Instruct \
  --max-model-len 8192
