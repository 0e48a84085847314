python -m vllm.entrypoints.openai.api_server \
    --model Qwen/Qwen2-57B-A14B-Instruct \
    --tensor-parallel-size 8
