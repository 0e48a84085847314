#!/bin/bash
export VLLM_USE_V1=0
vllm serve Qwen/Qwen2.5-VL-7B-Instruct \
  --task generate \
  --max-model-len 32767 \
  --limit-mm-per-prompt image=1,video=0 \
  --tensor-parallel-size 1 \
  --gpu-memory-utilization 0.90 \
  --max-num-seqs 8 \
  --trust-remote-code \
  --no-enable-prefix-caching \
  --enable-chunked-prefill=False \
  --disable-custom-all-reduce \
  --max-log-len 0 \
  --port 8862
