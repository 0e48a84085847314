#!/bin/bash
CUDA_VISIBLE_DEVICES=0 vllm serve /root/autodl-tmp/Qwen3-32B \
    --served-model-name Qwen3-32B \
    --host 0.0.0.0 --port 8000 \
    --max-num-seqs 16 \
    --speculative-config '{"method": "draft_model", "model": "/root/autodl-tmp/Qwen3-0.6B", "num_speculative_tokens": 3}'
