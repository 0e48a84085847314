#!/bin/bash
# GLM-4.5-Air (BF16) over a pair of H100 NVL cards in vLLM's 0.11.0 image
docker run --gpus all --ipc=host -p 8000:8000 vllm/vllm-openai:v0.11.0 \
  --model zai-org/GLM-4.5-Air \
  --tensor-parallel-size 2 \
  --max-model-len 32768
