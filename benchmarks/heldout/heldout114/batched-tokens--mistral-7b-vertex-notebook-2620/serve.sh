#!/bin/bash
# Container command of the Vertex AI notebook's deploy_model_vllm (one A100-40GB).
python -m vllm.entrypoints.api_server \
  --host=0.0.0.0 \
  --port=7080 \
  --model=mistralai/Mistral-7B-v0.1 \
  --tensor-parallel-size=1 \
  --swap-space=16 \
  --gpu-memory-utilization=0.95 \
  --max-num-batched-tokens=4096 \
  --disable-log-stats
