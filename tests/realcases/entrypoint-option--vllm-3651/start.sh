#!/bin/bash
python -m vllm.entrypoints.api_server --model /root/autodl-tmp/Qwen15_14B_Chat_sft \
  --tensor-parallel-size 2 --max-model-len 12800 --port 8080 --api-key token-temp
