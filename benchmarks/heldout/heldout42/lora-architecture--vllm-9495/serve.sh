#!/bin/bash
# InternVL2-8B with one rank-32 LoRA adapter on a single GPU; checkpoint-786/ is the reporter's local adapter folder
CUDA_VISIBLE_DEVICES=0 python3 -m vllm.entrypoints.openai.api_server \
  --model OpenGVLab/InternVL2-8B \
  --enable-lora \
  --max-lora-rank 32 \
  --lora-modules line_items=checkpoint-786/ \
  --api-key abcd \
  --host 0.0.0.0 --port 8817 \
  --gpu-memory-utilization 0.95 \
  --max-model-len 8192 \
  --trust-remote-code \
  --limit-mm-per-prompt 'image=16'
