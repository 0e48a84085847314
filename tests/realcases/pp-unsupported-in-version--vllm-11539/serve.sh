#!/bin/bash
# run on the Ray head node of a 2 x 8 H100 cluster
vllm serve deepseek-ai/DeepSeek-V3 --trust-remote-code \
    --tensor-parallel-size 8 --pipeline-parallel-size 2
