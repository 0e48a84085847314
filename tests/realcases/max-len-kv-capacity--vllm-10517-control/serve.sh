vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 20000 --gpu-memory-utilization 0.90
