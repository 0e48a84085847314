#!/bin/sh
# DeepSeek-V2-Lite-Instruct on eight GPUs with CPU offload, behind a path prefix
LOCAL_PATH=./models/DeepSeek-V2-Lite-Instruct
PORT0=8000
ROUTE_PATH=/dsv2
python3 -m vllm.entrypoints.openai.api_server --model $LOCAL_PATH \
  --served-model-name dsv2 --trust-remote-code \
  --tensor-parallel-size 8 --max-model-len 8192 --port $PORT0 \
  --dtype bfloat16 --root-path $ROUTE_PATH \
  --gpu-memory-utilization 0.9 --cpu-offload-gb 35
