#!/bin/sh
# eight H100s, plain tensor parallelism (no expert parallelism)
vllm serve nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4 \
  --trust-remote-code \
  --tensor-parallel-size 8
