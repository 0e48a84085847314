vllm serve neuralmagic/Qwen2-0.5B-Instruct-FP8 --enforce-eager --kv-cache-dtype=fp8
