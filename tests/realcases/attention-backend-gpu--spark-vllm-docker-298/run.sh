#!/bin/bash
# runs inside the vllm-node container (launch-cluster.sh --solo exec ...)
vllm serve zai-org/GLM-4.7-Flash \
  --max-model-len 10240 \
  --served-model-name glm-4.7-flash-bf16 \
  --gpu-memory-utilization 0.70 \
  --tensor-parallel-size 1 \
  --dtype auto \
  --port 8000 \
  --host 0.0.0.0 \
  --load-format fastsafetensors \
  --attention-backend TORCH_SDPA \
  --enable-prefix-caching \
  --reasoning-parser glm45 \
  --tool-call-parser glm47 \
  --enable-auto-tool-choice \
  --kv-cache-dtype fp8_e4m3 \
  --max_num_seqs 10 \
  --trust-remote-code
