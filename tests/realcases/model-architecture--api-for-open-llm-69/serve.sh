#!/bin/bash
export CUDA_VISIBLE_DEVICES=1,2
python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen-7B-Chat --trust-remote-code \
  --tensor-parallel-size 2 --port 8000
