#!/bin/sh
# gemma-2-9b-it from the local HF cache, served under another name
CUDA_VISIBLE_DEVICES=0 python -m vllm.entrypoints.openai.api_server \
  --served-model-name Qwen2-7B-Instruct \
  --model /home/user/.cache/huggingface/hub/models--google--gemma-2-9b-it/snapshots/1937c70277fcc5f7fb0fc772fc5bc69378996e71 \
  --dtype bfloat16 --host 0.0.0.0 --port 8888 --api-key test-000 \
  --max-model-len 4096 --gpu-memory-utilization 0.5
