vllm serve Qwen/Qwen2.5-VL-7B-Instruct --tensor-parallel-size 4 \
    --gpu-memory-utilization 0.5 --max-model-len 1024 --trust-remote-code
