#!/usr/bin/env bash
# two 7B services on the same 4 x H20 node (Volcengine vLLM image, TP read from env)
docker run -d --network host --privileged --gpus=all --name=vllm_qwen7B --ipc=host \
  -v /data/models:/data/models \
  -e PORT=6002 -e MODEL_NAME=DeepSeek-R1-Distill-Qwen-7B \
  -e VLLM_FLASH_ATTN_VERSION=2 -e TP=4 \
  -e CMD_ARGS="--gpu-memory-utilization 0.20" \
  ai-containers-cn-beijing.cr.volces.com/deeplearning/vllm:0.7.1.v1.iaas

docker run -d --network host --privileged --gpus=all --name=vllm_qwen7B_01 --ipc=host \
  -v /data/models:/data/models \
  -e PORT=6003 -e MODEL_NAME=DeepSeek-R1-Distill-Qwen-7B \
  -e VLLM_FLASH_ATTN_VERSION=2 -e TP=4 \
  -e CMD_ARGS="--gpu-memory-utilization 0.20" \
  ai-containers-cn-beijing.cr.volces.com/deeplearning/vllm:0.7.1.v1.iaas
