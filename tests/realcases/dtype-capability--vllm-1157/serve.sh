python -m vllm.entrypoints.openai.api_server --model baichuan-inc/Baichuan2-13B-Chat --trust-remote-code
