#!/bin/sh
# Qwen2.5-32B-Instruct as a 3-bit GGUF file
python -m vllm.entrypoints.openai.api_server \
  --model /data/models/Qwen2.5-32B-Instruct-GGUF-q3_k_m/qwen2.5-32b-instruct-q3_k_m.gguf \
  --dtype float16 --api-key '' \
  --tensor-parallel-size 1 --trust-remote-code \
  --gpu-memory-utilization 0.8 --port 8000 \
  --max_model_len 10000 --enforce-eager \
  --quantization gguf
