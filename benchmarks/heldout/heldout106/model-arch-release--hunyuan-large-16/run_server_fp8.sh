#!/bin/bash
MODEL_PATH=./models/Hunyuan-A52B-Instruct-FP8
python3 -m vllm.entrypoints.openai.api_server \
  --model ${MODEL_PATH} \
  --trust-remote-code \
  --tensor-parallel-size 8 \
  --dtype bfloat16 \
  --kv-cache-dtype fp8 \
  --max-model-len 10240 \
  --max-num-seqs 8 \
  --enforce-eager \
  --disable-custom-all-reduce \
  --port 8020
