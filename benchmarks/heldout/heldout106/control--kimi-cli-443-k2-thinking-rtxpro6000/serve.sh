#!/bin/bash
vllm serve moonshotai/Kimi-K2-Thinking \
  --served-model-name llm_model \
  --tensor-parallel-size 8 \
  --decode-context-parallel-size 8 \
  --enable-auto-tool-choice \
  --tool-call-parser kimi_k2 \
  --reasoning-parser kimi_k2 \
  --trust-remote-code \
  --gpu-memory-utilization 0.90 \
  --max-model-len 262144 \
  --port 9999
