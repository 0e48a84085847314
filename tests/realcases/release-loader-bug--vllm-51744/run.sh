#!/bin/bash
# vllm/vllm-openai:latest on the report day (vLLM 0.27.0, transformers 5.15.0)
docker run --rm --gpus all --ipc=host -p 8000:8000 \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  vllm/vllm-openai:v0.27.0 \
  --model yasu-oh/gemma-4-31B-it-qat-NVFP4 \
  --tensor-parallel-size 2 \
  --kv-cache-dtype fp8
