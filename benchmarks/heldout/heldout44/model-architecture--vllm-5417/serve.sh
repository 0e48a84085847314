#!/bin/bash
CUDA_VISIBLE_DEVICES=0,3 python3 -m vllm.entrypoints.openai.api_server \
  --model=THUDM/glm-4v-9b \
  --served-model-name=glm-4v-9b \
  --device=cuda --port=8000 --host=0.0.0.0 \
  --tensor-parallel-size=1 --dtype=auto --trust-remote-code
