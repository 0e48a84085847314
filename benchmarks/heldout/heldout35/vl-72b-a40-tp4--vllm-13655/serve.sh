#!/bin/sh
python3 -m vllm.entrypoints.openai.api_server \
  --model /model/Qwen2.5-VL-72B-Instruct \
  --port 23333 \
  --trust-remote-code \
  --tensor-parallel-size 4 \
  --max-model-len 20000 \
  --max-num-batched-tokens 20000 \
  --max-num-seqs 1 \
  --max-logprobs 0 \
  --enforce-eager \
  --gpu-memory-utilization 0.95
