python -m vllm.entrypoints.openai.api_server --model /data/qwen1.5/Qwen1.5-32B-Chat-AWQ \
    --max-model-len 512 --port 8001
