vllm serve neuralmagic/Meta-Llama-3-8B-Instruct-FP8 --kv-cache-dtype fp8 --max-model-len 8192
