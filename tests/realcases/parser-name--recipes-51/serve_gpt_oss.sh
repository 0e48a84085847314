#!/bin/bash
vllm serve openai/gpt-oss-120b --tensor_parallel_size 8 --max-model-len 131072 \
  --max-num-batched-tokens 10240 --max-num-seqs 128 \
  --tool-call-parser openai --enable-auto-tool-choice \
  --gpu-memory-utilization 0.85 --no-enable-prefix-caching
