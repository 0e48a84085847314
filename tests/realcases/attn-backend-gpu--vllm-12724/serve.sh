VLLM_USE_V1=1 vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 4 --max-model-len 8192
