#!/usr/bin/env bash
# Head of a two-node ROCm cluster (one GPU per node); the worker node runs `ray start --address=<head>:6379`.
set -e
ray start --head --port=6379
sleep 30
vllm serve /models/DeepSeek-V3 --trust-remote-code \
  --tensor-parallel-size 1 --pipeline-parallel-size 2 --max-model-len 8192
