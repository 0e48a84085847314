#!/bin/bash
# AWQ Mixtral over four GPUs with an fp8 KV cache and Mistral-7B as the speculative draft
python3 -u -m vllm.entrypoints.openai.api_server \
  --host 0.0.0.0 \
  --model casperhansen/mixtral-instruct-awq \
  --tensor-parallel-size 4 \
  --enforce-eager \
  --quantization awq \
  --gpu-memory-utilization 0.96 \
  --kv-cache-dtype fp8 \
  --speculative-model mistralai/Mistral-7B-Instruct-v0.2 \
  --num-speculative-tokens 3 \
  --use-v2-block-manager \
  --num-lookahead-slots 5
