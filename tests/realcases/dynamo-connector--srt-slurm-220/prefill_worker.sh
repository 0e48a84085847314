#!/bin/bash
# one prefill worker of a disaggregated Dynamo deployment on a SLURM node, as the
# benchmark launcher wrote it before Dynamo 1.0.0 (connector chosen by Dynamo's own option)
python3 -m dynamo.vllm \
  --model Qwen/Qwen3-32B \
  --tensor-parallel-size 4 \
  --is-prefill-worker \
  --connector nixl
