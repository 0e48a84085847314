ray start --address=$HEAD_IP:6379
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 32 --trust-remote-code --max-model-len 8192
