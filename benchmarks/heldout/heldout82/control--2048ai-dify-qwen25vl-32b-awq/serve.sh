#!/bin/sh
nohup python3 -m vllm.entrypoints.openai.api_server \
  --model ./models/Qwen2___5-VL-32B-Instruct-AWQ \
  --served-model-name Qwen2.5-VL-32B-AWQ \
  --tensor-parallel-size 1 \
  --max-num-seqs 32 \
  --gpu-memory-utilization 0.7 \
  --quantization awq_marlin \
  --max-model-len 24576 \
  --enforce-eager \
  --api-key sk-placeholder \
  --host 0.0.0.0 \
  --port 8005 > ./logs/qwen2.5-VL-32B-AWQ.log 2>&1 &
