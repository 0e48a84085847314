vllm serve --trust-remote-code --tensor_parallel_size 2 --gpu_memory_utilization=0.98 \
    deepseek-ai/DeepSeek-R1-Distill-Qwen-14B
