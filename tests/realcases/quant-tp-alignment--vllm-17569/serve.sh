vllm serve models/Qwen3-235B-A22B-FP8 --tensor-parallel-size 8 --max-model-len 8192
