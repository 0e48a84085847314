vllm serve google/gemma-3-4b-it --tensor-parallel-size 2 --gpu-memory-utilization 0.9 \
    --max-model-len=17370 --port 8001
