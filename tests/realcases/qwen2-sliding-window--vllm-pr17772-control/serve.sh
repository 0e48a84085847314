python -m vllm.entrypoints.openai.api_server --model models/QwQ-32B --host "::" --port 8600 \
    --tensor-parallel-size 8 --gpu-memory-utilization 0.95 --max-model-len 40960 --dtype bfloat16 \
    --max-num-seqs 16 --served-model-name qwq32b --enable-prefix-caching --enforce-eager
