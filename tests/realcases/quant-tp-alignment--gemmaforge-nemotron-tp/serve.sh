#!/bin/sh
# Two NVIDIA L4 (24 GB, compute capability 8.9, PCIe, no NVLink)
vllm serve nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4 \
  --tensor-parallel-size 2
