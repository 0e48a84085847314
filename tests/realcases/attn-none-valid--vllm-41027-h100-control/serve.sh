#!/bin/sh
python3 -m vllm.entrypoints.openai.api_server --model /mnt/models/DeepSeek-V4-Flash --served-model-name ds4 \
  --host 0.0.0.0 --port 80 --max-model-len 1048576 --gpu-memory-utilization 0.9 --enable-auto-tool-choice \
  --tool-call-parser deepseek_v4 --reasoning-parser deepseek_v4 --kv-cache-dtype fp8 --block-size 256 \
  --trust-remote-code --tensor-parallel-size 4
