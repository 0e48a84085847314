python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen-7B-Chat --trust-remote-code --port 8000
