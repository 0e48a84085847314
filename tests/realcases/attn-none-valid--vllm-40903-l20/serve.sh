#!/bin/sh
vllm serve /workdir/model/deepseek-v4-flash/ --served-model-name dpsk --host 0.0.0.0 --port 8082 \
  --tensor-parallel-size 8 --max-model-len 32000 --gpu-memory-utilization 0.8 --enforce-eager --kv-cache-dtype fp8
