python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-14B-Instruct-GPTQ-Int4 \
    --gpu-memory-utilization 0.20 --max-model-len=16384 --quantization=gptq --enforce-eager
