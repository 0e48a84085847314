export VLLM_USE_V1=0
vllm serve Qwen/Qwen3-4B --dtype half --max-model-len 8192
