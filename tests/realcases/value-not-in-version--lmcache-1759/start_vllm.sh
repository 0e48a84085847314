#!/bin/bash
CUDA_VISIBLE_DEVICES=0 LMCACHE_USE_EXPERIMENTAL=True LMCACHE_CONFIG_FILE=example.yaml \
vllm serve meta-llama/Meta-Llama-3.1-8B-Instruct \
    --max-model-len 4096 --gpu-memory-utilization 0.8 --port 8000 \
    --kv-transfer-config '{"kv_connector":"LMCacheConnector", "kv_role":"kv_both"}'
