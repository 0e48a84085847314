#!/bin/bash
docker run --runtime nvidia --gpus all -p 8000:8000 \
  -v /data/models:/models \
  vllm/vllm-openai:v0.8.3 \
  --model /models/MiniMax-Text-01 --tensor-parallel-size 8 --trust-remote-code \
  --quantization experts_int8 --max-model-len 4096
