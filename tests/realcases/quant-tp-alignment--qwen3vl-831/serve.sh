vllm serve models/Qwen2.5-VL-72B-Instruct-AWQ --tensor-parallel-size 4 --max-model-len 32768
