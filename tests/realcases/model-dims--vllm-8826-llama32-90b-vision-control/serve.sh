#!/bin/sh
# Llama 3.2 90B Vision on four H100s (the server arguments of the reporter's docker run)
vllm serve meta-llama/Llama-3.2-90B-Vision-Instruct \
  --port 5020 --host 0.0.0.0 --seed 1234 \
  --tensor-parallel-size 4 \
  --max-model-len 81920 --max-num-batched-tokens 81920 \
  --limit-mm-per-prompt image=1 \
  --enforce-eager --max-num-seqs 8 \
  --gpu-memory-utilization 0.99
