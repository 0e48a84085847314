#!/bin/bash
# Two ROCm nodes joined in one Ray cluster (one GPU each, `ray status` shows 2 GPUs);
# launched on the head node without --distributed-executor-backend.
vllm serve ./DeepSeek-V3 --trust-remote-code \
  --tensor-parallel-size 1 --pipeline-parallel-size 2
