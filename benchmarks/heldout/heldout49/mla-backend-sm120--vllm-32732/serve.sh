#!/bin/sh
# DeepSeek-R1-0528 in NVFP4 across eight RTX PRO 6000 Blackwell cards (SM120)
vllm serve nvidia/DeepSeek-R1-0528-NVFP4 \
  --tensor-parallel-size 8
