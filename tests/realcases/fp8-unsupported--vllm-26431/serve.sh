vllm serve Qwen/Qwen2.5-7B-Instruct --kv-cache-dtype fp8 --tensor-parallel-size 2 --max-model-len 16384
