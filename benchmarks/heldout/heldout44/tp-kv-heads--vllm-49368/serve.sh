#!/bin/bash
# head node of a 4-node Ray cluster, 8 GPUs each
vllm serve zai-org/GLM-4.1V-9B-Thinking \
  --tensor-parallel-size 32 \
  --distributed-executor-backend ray
