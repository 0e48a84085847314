python -m vllm.entrypoints.openai.api_server --model models/my-sft-7b-awq --worker-use-ray
