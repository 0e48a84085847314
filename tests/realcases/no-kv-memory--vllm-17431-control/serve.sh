VLLM_USE_V1=0 python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-8B --served-model-name Qwen3-8B \
    --gpu-memory-utilization 0.4 --port 8001
