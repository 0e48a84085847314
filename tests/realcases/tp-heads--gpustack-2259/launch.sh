vllm serve /var/lib/gpustack/cache/huggingface/google/gemma-3-27b-it \
    --max-model-len 8192 --tensor-parallel-size 3 --served-model-name gemma-3-27b-it
