export LMCACHE_CHUNK_SIZE=256
export LMCACHE_LOCAL_CPU=False
export LMCACHE_LOCAL_DISK="file:///mnt/lmcache/"
export LMCACHE_MAX_LOCAL_DISK_SIZE=256
vllm serve Qwen/Qwen3-14B \
    --max-model-len 32768 \
    --kv-transfer-config '{"kv_connector": "LMCacheConnectorV1", "kv_role": "kv_both"}'
