#!/bin/sh
set -x
python app.py --host 0.0.0.0 --port 5085 \
  --model wasertech/assistant-llama2-7b-chat-awq \
  --tokenizer hf-internal-testing/llama-tokenizer \
  --dtype half \
  --tensor-parallel-size 1 \
  --gpu-memory-utilization 0.65 \
  --quantization awq
