#!/bin/sh
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 python3 -m vllm.entrypoints.openai.api_server \
  --host localhost \
  --port 8806 \
  --model /models/Qwen3-235B-A22B \
  --gpu-memory-utilization 0.9 --trust-remote-code \
  --max-model-len 32768 \
  --tensor-parallel-size 8 --dtype float16 \
  --max_num_seqs 128 \
  --max_num_batched_tokens 32768 --disable-log-requests
