#!/bin/sh
python -m vllm.entrypoints.openai.api_server \
  --served-model-name gemma-3-12b-it \
  --model ./models/gemma-3-12b-it \
  --tensor-parallel-size 2 \
  --dtype=half \
  --max-model-len 8192 \
  --gpu_memory_utilization 0.99 \
  --max_num_seqs 2 \
  --trust-remote-code \
  --enforce-eager \
  --port=7777
