#!/bin/bash
vllm serve meta-llama/Meta-Llama-3.1-405B-Instruct-FP8 --tensor-parallel-size 8 \
  --max-model-len 65536 --enable-chunked-prefill --max-num-batched-tokens 512 \
  --gpu-memory-utilization 0.98
