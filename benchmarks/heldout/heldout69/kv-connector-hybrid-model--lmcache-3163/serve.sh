#!/bin/bash
export LMCACHE_CONFIG_FILE=lmcache_config.yaml
vllm serve Qwen/Qwen3.6-27B \
  --host 0.0.0.0 \
  --port 8000 \
  --served-model-name Qwen3.6-27B \
  --trust-remote-code \
  --max-model-len 262144 \
  --gpu-memory-utilization 0.75 \
  --enable-prefix-caching \
  --generation-config vllm \
  --tensor-parallel-size 4 \
  --reasoning-parser qwen3 \
  --enable-auto-tool-choice \
  --tool-call-parser qwen3_coder \
  --disable-sliding-window \
  --kv-transfer-config '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}'
