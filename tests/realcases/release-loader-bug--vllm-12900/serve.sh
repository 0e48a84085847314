#!/bin/sh
# Run inside the vllm/vllm-openai:v0.7.2 image (rebuilt with a newer transformers), two Turing cards.
CUDA_VISIBLE_DEVICES=0,1 python3 -m vllm.entrypoints.openai.api_server \
  --model Qwen/Qwen2.5-VL-7B-Instruct \
  --tensor-parallel-size 2 \
  --trust-remote-code \
  --max-model-len 18000 \
  --dtype half \
  --quantization bitsandbytes \
  --load-format bitsandbytes
