vllm serve models/Qwen3-VL-8B-Instruct-FP8 --tensor-parallel-size 2 --max-model-len 8192
