#!/bin/sh
# Ministral 3 14B (BF16) behind the OpenAI server, benchmarked afterwards with `vllm bench serve`
vllm serve mistralai/Ministral-3-14B-Instruct-2512-BF16 \
  --max-model-len 32768 \
  --max-num-seqs 32 \
  --tensor-parallel-size 4 \
  --tokenizer_mode mistral \
  --config_format mistral \
  --enable-prefix-caching
