python -m vllm.entrypoints.openai.api_server --model=microsoft/Phi-3-small-8k-instruct \
    --tensor-parallel-size=1 --disable-log-requests --trust-remote-code --enable-chunked-prefill \
    --max-num-batched-tokens=2048 --max-model-len=4096 --gpu-memory-utilization=0.9
