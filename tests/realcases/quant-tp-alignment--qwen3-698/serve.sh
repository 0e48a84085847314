python -m vllm.entrypoints.openai.api_server --model ./qwen2-72b-instruct-ft-awq --tensor-parallel-size 4
