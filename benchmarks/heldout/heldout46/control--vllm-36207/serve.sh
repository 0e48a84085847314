#!/bin/bash
# head node of a 4-node data-parallel deployment, TP 8 per node
vllm serve moonshotai/Kimi-K2.5 \
  --tensor-parallel-size 8 \
  --gpu-memory-utilization 0.75 \
  --host 0.0.0.0 \
  --port 8000 \
  --served-model-name kimi-k2.5 \
  --trust-remote-code \
  --enable-expert-parallel \
  --mm-encoder-tp-mode data \
  --data-parallel-size 4 \
  --data-parallel-size-local 1 \
  --data-parallel-address 10.0.0.1 \
  --data-parallel-rpc-port 13345 \
  --enable-auto-tool-choice \
  --tool-call-parser kimi_k2
