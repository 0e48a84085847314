#!/bin/bash
docker run --gpus all --ipc=host -p 8000:8000 vllm/vllm-openai:v0.19.1 \
  --model Qwen/Qwen3.6-27B-FP8 \
  --kv-transfer-config '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}'
