#!/bin/sh
CUDA_VISIBLE_DEVICES=0 evalscope perf --rate 1 --model Qwen/Qwen-14B-Chat \
  --attn-implementation flash_attention_2 --log-every-n-query 5 \
  --connect-timeout 6000 --read-timeout 6000 --max-tokens 2048 --min-tokens 2048 \
  --api local_vllm --dataset speed_benchmark --parallel 10
