#!/bin/sh
docker run --gpus all --ipc=host -p 8000:8000 -v /data/models:/models vllm/vllm-openai:v0.6.1 \
  --model /models/Llama-3.1-Storm-8B-AWQ --served-model-name gpt-4o \
  --tensor-parallel-size 2 --max-model-len 16384 --enable-prefix-caching --seed 42
