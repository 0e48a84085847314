#!/bin/bash
# NVIDIA's NVFP4 DeepSeek-R1 on eight RTX PRO 6000 Blackwell workstation cards
vllm serve nvidia/DeepSeek-R1-0528-NVFP4 \
    --tensor-parallel-size 8 \
    --max-model-len 32768
