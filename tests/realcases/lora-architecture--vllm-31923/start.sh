#!/usr/bin/env bash
# Nemotron 3 Nano (hybrid Mamba/MoE, 30B total, 3B active) served with one LoRA adapter.
vllm serve nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --trust-remote-code \
  --enable-lora --max-lora-rank 32 --lora-modules sql=./adapters/sql \
  --max-model-len 32768
