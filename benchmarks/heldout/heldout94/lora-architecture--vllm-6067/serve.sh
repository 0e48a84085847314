#!/bin/sh
python -m vllm.entrypoints.openai.api_server \
  --model Qwen/Qwen2-57B-A14B-Instruct \
  --tensor-parallel-size 4 \
  --max-model-len 8192 \
  --enable-lora \
  --lora-modules qwen2-57b-sft=./lora/qwen2-57b-sft
