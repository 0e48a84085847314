#!/usr/bin/env bash
docker run -d --network host --privileged --gpus=all --name=vllm_qwen7B --ipc=host \
  -v /data/models:/data/models \
  -e PORT=6002 -e MODEL_NAME=DeepSeek-R1-Distill-Qwen-7B \
  -e VLLM_FLASH_ATTN_VERSION=2 -e TP=4 \
  -e CMD_ARGS="--gpu-memory-utilization 0.20" \
  ai-containers-cn-beijing.cr.volces.com/deeplearning/vllm:0.7.1.v1.iaas
