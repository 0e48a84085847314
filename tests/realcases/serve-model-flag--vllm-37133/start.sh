#!/bin/bash
docker run --gpus all --ipc=host -p 8000:8000 -v /data/models:/models \
  vllm/vllm-openai:v0.17.1 \
  vllm serve /models/GLM-4.7-Flash-AWQ-4bit --max-model-len 4096 \
  --enable-auto-tool-choice --tool-call-parser hermes
