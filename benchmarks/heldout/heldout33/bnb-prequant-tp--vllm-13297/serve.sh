#!/bin/sh
CUDA_VISIBLE_DEVICES=0,1 vllm serve unsloth/Llama-3.3-70B-Instruct-bnb-4bit \
  --max-model-len=8192 \
  --max-num-batched-token=8192 \
  --gpu-memory-utilization=0.99 \
  --enforce-eager \
  --disable-log-requests \
  --max-num-seqs=16 \
  --quantization=bitsandbytes \
  --load-format=bitsandbytes \
  --tensor-parallel-size 2
