python -m vllm.entrypoints.openai.api_server --served-model-name qwen2vl \
    --model models/Qwen2-VL-72B-Instruct-GPTQ-Int4 --tensor-parallel-size 2
