#!/bin/bash
python -m vllm.entrypoints.openai.api_server \
  --served-model-name Qwen2___5-VL-32B-Instruct-AWQ \
  --model Qwen/Qwen2.5-VL-32B-Instruct-AWQ \
  --tensor-parallel-size 2 \
  --dtype=half \
  --gpu_memory_utilization 0.99 \
  --max_num_seqs 10 \
  --limit-mm-per-prompt "image=5,video=0" \
  --mm-processor-kwargs '{"max_pixels": 2073600}' \
  --enable-auto-tool-choice \
  --tool-call-parser=llama3_json \
  --trust-remote-code \
  --enforce-eager \
  --port=7777 \
  --max-model-len 18000
