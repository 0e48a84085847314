#!/bin/bash
# run on the head node after `ray start --head` and `ray start --address=...` on the workers
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --pipeline-parallel-size 3 \
  --distributed-executor-backend ray --trust-remote-code
