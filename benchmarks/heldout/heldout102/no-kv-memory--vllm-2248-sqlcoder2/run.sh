#!/usr/bin/env bash
# two servers share GPU 1; this is the first one
docker build -t local/vllm-runtime:0.2.6 .
port=5001
tokens=8192
docker run -d --runtime=nvidia --gpus '"device=1"' --shm-size=10.24gb \
  -p $port:$port --network host \
  -v "${HOME}/.cache:/workspace/.cache" \
  local/vllm-runtime:0.2.6 \
    --port=$port --host=0.0.0.0 \
    --model=defog/sqlcoder2 \
    --seed 1234 --trust-remote-code \
    --max-num-batched-tokens $tokens \
    --max-model-len=$tokens \
    --gpu-memory-utilization 0.4 \
    --download-dir=/workspace/.cache/huggingface/hub
