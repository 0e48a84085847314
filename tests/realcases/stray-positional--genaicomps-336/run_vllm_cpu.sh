#!/bin/bash
docker build -f Dockerfile.cpu -t vllm:cpu .
docker run -it --name vllm_service -p 8008:80 \
    -e HF_TOKEN=${HUGGINGFACEHUB_API_TOKEN} -v ./data:/data \
    vllm:cpu /bin/bash -c "cd / && export VLLM_CPU_KVCACHE_SPACE=40 && python3 -m vllm.entrypoints.openai.api_server --model ${your_hf_llm_model} --port 80"
