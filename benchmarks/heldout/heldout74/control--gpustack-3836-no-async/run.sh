#!/bin/sh
# The same GPUStack deployment with the --async-scheduling backend parameter removed
vllm serve /var/lib/gpustack/cache/huggingface/openai/gpt-oss-120b \
  --max-model-len 8192 \
  --tensor-parallel-size 2 \
  --pipeline-parallel-size 2 \
  --distributed-executor-backend ray \
  --max-model-len=32768 \
  --tool-call-parser=openai \
  --enable-auto-tool-choice \
  --host 192.168.8.141 \
  --port 40044 \
  --served-model-name gpt-oss-120b
