vllm serve models/llama-3.1-70b-instruct-fp8 --tensor-parallel-size 8 --kv-cache-dtype fp8_e5m2 \
    --max-model-len 32768
