#!/bin/bash
# Run on the Ray head node once both 8-GPU nodes have joined the cluster.
vllm serve moonshotai/Kimi-K2-Instruct \
  --trust-remote-code \
  --tensor-parallel-size 16 \
  --distributed-executor-backend ray \
  --max-model-len 32768 \
  --enable-auto-tool-choice \
  --tool-call-parser kimi_k2 \
  --port 8000
