#!/bin/sh
# the launch image's entrypoint, with the reporter's arguments
export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7
vllm serve /workspace/DeepSeek-V4-Flash --trust-remote-code --tensor-parallel-size 8 \
  --enable-expert-parallel --kv-cache-dtype fp8 --block-size 256 --port 8000
