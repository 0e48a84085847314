#!/bin/sh
sudo docker run --runtime nvidia --gpus all \
  -v /media/modules:/root/model \
  -p 8000:8000 \
  --ipc=host \
  --name t1 \
  vllm/vllm-openai:v0.8.5.post1 \
  --model THUDM/glm-edge-1.5b-chat \
  --max-model-len 8000 --dtype auto \
  --tensor-parallel-size 1
