#!/bin/bash
CUDA_VISIBLE_DEVICES=0,1 vllm serve nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 \
  --tensor-parallel-size 2 \
  --enable-lora \
  --lora-modules dummy=ace-nguyen/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16-dummy-moe-lora \
  --max-lora-rank 128 --max-model-len 2048 --max-num-seqs 4 \
  --gpu-memory-utilization 0.75 --trust-remote-code
