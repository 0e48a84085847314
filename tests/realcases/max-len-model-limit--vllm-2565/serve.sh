python -m vllm.entrypoints.openai.api_server --model=01-ai/Yi-34B-Chat --tensor-parallel-size=4 \
    --trust-remote-code --max-model-len=204800
