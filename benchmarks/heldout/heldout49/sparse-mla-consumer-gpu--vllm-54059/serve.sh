#!/bin/sh
# GLM-5.3-Flash (FP8 checkpoint, sparse MLA) on eight RTX 4090 48 GB cards
docker run --gpus all --ipc=host -p 8000:8000 \
  -v /data/models:/models \
  vllm/vllm-openai:glm53-flash-cu129 \
  /models/GLM-5.3-Flash \
  --tensor-parallel-size 8 \
  --reasoning-parser glm45 \
  --tool-call-parser glm47
