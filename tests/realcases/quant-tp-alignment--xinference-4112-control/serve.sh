vllm serve ./models/Qwen3-VL-235B-A22B-Instruct-FP8 \
    --enable-expert-parallel --max-model-len 32768 --tensor-parallel-size 4
