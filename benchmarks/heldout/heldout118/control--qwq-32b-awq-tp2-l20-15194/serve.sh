#!/bin/bash
vllm serve /root/data/models/QwQ-32B-AWQ --api-key "$VLLM_API_KEY" --gpu-memory-utilization 0.9 \
  --tensor-parallel-size 2 --quantization awq --host 0.0.0.0 --port 8877 --served-model-name qwq
