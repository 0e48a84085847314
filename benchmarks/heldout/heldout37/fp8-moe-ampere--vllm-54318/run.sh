#!/bin/sh
# Official model-specific image on a 4x A100 80GB PCIe host.
docker run --rm --gpus all \
  --ipc=host \
  --network=host \
  --shm-size=32g \
  -e VLLM_PLE_CPU_OFFLOAD=1 \
  vllm/vllm-openai:qwen38-flash-next \
  --model Qwen/Qwen3.8-Flash-Next-FP8 \
  --tensor-parallel-size 4
