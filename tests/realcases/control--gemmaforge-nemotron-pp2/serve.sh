#!/bin/sh
# Two NVIDIA L4: whole layers per GPU instead of split weights
vllm serve nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4 \
  --pipeline-parallel-size 2 \
  --trust-remote-code
