#!/bin/sh
# One GPU of a DGX, the OpenAI server started through bash inside the official image.
sudo docker run -d --shm-size=10.24gb --gpus '"device=2"' -p 5008:5008 \
  -v /dgxdata/aiml/:/home/ndurkee \
  --entrypoint /bin/bash vllm/vllm-openai:v0.5.0.post1 \
  -c "python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2-7B-Instruct-GPTQ-Int8 -tp 1 --gpu-memory-utilization 0.9 --dtype auto --distributed-executor-backend mp --port 5008"
