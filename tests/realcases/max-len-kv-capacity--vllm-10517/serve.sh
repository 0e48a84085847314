vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 29000 --gpu-memory-utilization 0.90
