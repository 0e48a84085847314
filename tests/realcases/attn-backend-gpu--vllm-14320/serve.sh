export VLLM_ATTENTION_BACKEND=TORCH_SDPA
vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 8 --max-model-len 8192
