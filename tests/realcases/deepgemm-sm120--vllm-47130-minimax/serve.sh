#!/bin/bash
vllm serve MiniMaxAI/MiniMax-M2.7 --trust-remote-code --tensor-parallel-size 4 \
  --host 0.0.0.0 --port 8000 --max-model-len 196608 --gpu-memory-utilization 0.97 \
  --max-num-seqs 8 --disable-custom-all-reduce --enable-auto-tool-choice \
  --tool-call-parser minimax_m2 --reasoning-parser minimax_m2 \
  --compilation-config '{"mode":3}' --served-model-name MiniMaxAI/MiniMax-M2.7 \
  --max-num-batched-tokens 32768 --kv-cache-dtype fp8
