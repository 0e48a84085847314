python -m vllm.entrypoints.openai.api_server --model models/Phi-3-small-128k-instruct --trust-remote-code
