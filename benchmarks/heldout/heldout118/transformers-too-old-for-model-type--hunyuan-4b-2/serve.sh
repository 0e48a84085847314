#!/bin/bash
# Serve the dense Hunyuan 4B checkpoint with the OpenAI-compatible server.
vllm serve tencent/Hunyuan-4B-Instruct \
  --port 8000 \
  --max-model-len 8192 \
  --tensor-parallel-size 1
