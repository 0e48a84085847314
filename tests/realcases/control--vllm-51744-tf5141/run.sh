#!/bin/bash
# the reporter's workaround: transformers 5.14.1 over the same image (vLLM 0.27.0), the same serving flags
docker run --rm --gpus all --ipc=host -p 8000:8000 \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  --entrypoint bash vllm/vllm-openai:v0.27.0 \
  -c "pip install transformers==5.14.1 && vllm serve yasu-oh/gemma-4-31B-it-qat-NVFP4 --tensor-parallel-size 2 --kv-cache-dtype fp8"
