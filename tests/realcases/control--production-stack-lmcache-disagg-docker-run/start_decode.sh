#!/bin/bash
# decode side of a disaggregated prefill pair: the LMCache image's entrypoint is `vllm serve`
IMAGE=lmcache/vllm-openai:2025-05-27-v1
docker run --runtime nvidia --gpus all \
    --env "LMCACHE_NIXL_ROLE=receiver" \
    --env "CUDA_VISIBLE_DEVICES=1" \
    --ipc host --shm-size="8g" \
    -v ~/.cache/huggingface:/root/.cache/huggingface \
    --network host \
    $IMAGE \
    meta-llama/Llama-3.1-8B-Instruct \
    --port 8200 \
    --enforce-eager \
    --kv-transfer-config '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_consumer"}'
