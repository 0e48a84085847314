#!/bin/sh
docker run -it --gpus '"device=1,7"' --network host --ipc=host --shm-size=16g \
  -v /raid/models/GLM-4.7-Flash:/models/GLM-4.7-Flash \
  --entrypoint /bin/bash vllm/vllm-openai:nightly
# inside the container:
# vllm serve GLM-4.7-Flash ... (see serve.sh)
