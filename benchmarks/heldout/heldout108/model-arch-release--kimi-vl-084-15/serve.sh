#!/bin/sh
python3 -m vllm.entrypoints.openai.api_server \
  --model moonshotai/Kimi-VL-A3B-Instruct \
  --served-model-name kimi-vl \
  --trust-remote-code \
  --tensor-parallel-size 1 \
  --max-num-batched-tokens 131072 \
  --max-model-len 131072 \
  --max-num-seqs 512 \
  --limit-mm-per-prompt image=256
