#!/bin/bash
# The model's launch image on four A100s, MoE backend left to vLLM.
docker run --gpus all --ipc=host -p 8000:8000 \
  -v /data/models/Qwen3.8-Flash-Next-FP8:/models/Qwen3.8-Flash-Next-FP8 \
  vllm/vllm-openai:qwen38-flash-next \
  --model /models/Qwen3.8-Flash-Next-FP8 \
  --tensor-parallel-size 4 --max-model-len 262144
