CUDA_VISIBLE_DEVICES=3,4 vllm serve ./InternVL3-78B-AWQ --gpu-memory-utilization 0.95 --max-model-len 32768 \
    --quantization awq --enforce-eager --host 0.0.0.0 --port 11441 --tensor-parallel-size 2 --dtype half --trust-remote-code
