#!/bin/bash
docker exec -it openmanus-rl bash -c '
export VLLM_USE_ROCM=1
vllm serve /root/models/GiGPO-Qwen2.5-7B-Instruct-ALFWorld \
  --served-model-name qwen2.5-7b-alfworld \
  --dtype bfloat16 \
  --tensor-parallel-size 1 \
  --gpu-memory-utilization 0.55 \
  --max-model-len 16384 \
  --enforce-eager \
  --device cuda \
  --port 8000
'
