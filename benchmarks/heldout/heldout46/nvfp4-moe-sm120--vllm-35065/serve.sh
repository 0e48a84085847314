#!/bin/bash
# Nemotron-3 Nano (hybrid Mamba/MoE) NVFP4 on one RTX 5090
vllm serve nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4 \
  --trust-remote-code \
  --max-model-len 32768
