#!/bin/sh
# inside the image built from vLLM v0.3.1's Dockerfile.rocm, on eight MI300X
python3 -m vllm.entrypoints.openai.api_server \
  --model meta-llama/Llama-2-70b-chat-hf \
  --dtype float16 \
  --tensor-parallel-size 8
