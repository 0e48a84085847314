#!/bin/bash
# Qwen3-VL-30B-A3B-Instruct (MoE vision-language) on one H100
vllm serve Qwen/Qwen3-VL-30B-A3B-Instruct \
  --dtype bfloat16 \
  --tensor-parallel-size 1 \
  --gpu-memory-utilization 0.92 \
  --max-num-seqs 128 \
  --max-num-batched-tokens 16384 \
  --limit-mm-per-prompt '{"image": 3, "video": 5}' \
  --max-model-len 32768 \
  --logprobs-mode processed_logprobs
