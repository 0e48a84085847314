python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen1.5-14B-Chat --dtype half \
    --gpu-memory-utilization 0.95
