#!/bin/bash
# the container as first started: no --shm-size, no --ipc=host
docker run -d \
  -e XINFERENCE_MODEL_SRC=modelscope \
  -v /data/xinference_llm/.xinference:/root/.xinference \
  -v /data/xinference_llm/.cache/huggingface:/root/.cache/huggingface \
  -v /data/xinference_llm/.cache/modelscope:/root/.cache/modelscope \
  -p 9997:9997 \
  --gpus all \
  --name xinference \
  xprobe/xinference:v0.12.0 \
  xinference-local -H 0.0.0.0 --log-level debug
