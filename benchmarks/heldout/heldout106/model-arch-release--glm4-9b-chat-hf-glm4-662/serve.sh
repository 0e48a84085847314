#!/bin/bash
vllm serve THUDM/glm-4-9b-chat-hf \
  --served-model-name glm-4-9b-chat \
  --dtype auto \
  --tensor-parallel-size 1 \
  --max-model-len 8192 \
  --gpu-memory-utilization 0.95 \
  --host 0.0.0.0 --port 8000 \
  --trust-remote-code
