#!/bin/sh
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 python -m vllm.entrypoints.openai.api_server \
  --model /data/models/Qwen2-7B-Instruct/ \
  --served-model-name aaa \
  --trust-remote-code \
  --pipeline-parallel-size 8
