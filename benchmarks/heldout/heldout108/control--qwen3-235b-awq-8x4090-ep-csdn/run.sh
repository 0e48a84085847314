#!/bin/sh
sudo docker run --runtime nvidia --gpus all -d \
  -v /home/ps/Qwen3:/models \
  --ipc=host --net=host \
  --name Qwen3 \
  vllm/vllm-openai:v0.8.5.post1 \
  --model /models/Qwen/Qwen3-235B-A22B-AWQ \
  --trust-remote-code \
  --tensor-parallel-size 8 \
  --enable-chunked-prefill \
  --enable-expert-parallel \
  --quantization awq_marlin \
  --enable-reasoning \
  --reasoning-parser deepseek_r1 \
  --enforce-eager
