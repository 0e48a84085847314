python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-14B-AWQ --max-model-len 16384 \
    --tensor-parallel-size 1 --gpu-memory-utilization 0.80 --max-num-seqs 32 --enable-chunked-prefill \
    --max-num-batched-tokens 20480 --quantization awq --dtype half --enforce-eager
