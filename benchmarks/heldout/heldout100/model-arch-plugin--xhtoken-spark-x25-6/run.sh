#!/bin/sh
# run from inside the downloaded model folder
docker run --rm --gpus all -p 30000:30000 \
  -v "${PWD}:/models/Spark-X2.5-4B:ro" \
  vllm/vllm-openai:v0.28.0 \
  --model /models/Spark-X2.5-4B \
  --port 30000 \
  --trust-remote-code \
  --served-model-name spark25 \
  --tensor-parallel-size 1 \
  --gpu-memory-utilization 0.7 \
  --enable-prefix-caching \
  --chat-template /models/Spark-X2.5-4B/chat_template.jinja
